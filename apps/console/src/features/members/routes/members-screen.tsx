import type { Project } from '@polyflow/contracts/projects';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Card, CardHeader } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { canManage, ROLE_LABELS } from '../../../lib/roles';
import { useMembers } from '../api/get-members';
import { InvitationList } from '../components/invitation-list';
import { InviteForm } from '../components/invite-form';
import { MemberList } from '../components/member-list';

interface MembersScreenProps {
  project: Project;
  /** The signed-in user's address: their own row offers "Leave". */
  email: string;
  onLeft: () => void;
}

/** Members: who is in the project with which role, the invitations on their way, and the invite form. */
export function MembersScreen({ project, email, onLeft }: MembersScreenProps) {
  const members = useMembers(project.id);
  const mayChange = canManage(project.role);
  return (
    <div className="flex animate-panel flex-col gap-4">
      <PageHeader eyebrow={project.name} title="Members">
        <p className="text-sm text-slate-600">
          Your role: <strong>{ROLE_LABELS[project.role]}</strong>
        </p>
      </PageHeader>
      {mayChange && (
        <Card aria-labelledby="invite-title">
          <CardHeader
            titleId="invite-title"
            eyebrow="Invite"
            title="Invite someone"
            description="They get an email with a link (7 days, single use). Without a Polyflow account they sign up with that address first. Admins change keys, domains, tokens, retention and members; viewers read everything and change nothing."
          />
          <InviteForm projectId={project.id} />
        </Card>
      )}
      {members.isPending ? (
        <Card className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading members…
        </Card>
      ) : members.isError ? (
        <Alert tone="error">Could not load the members: {members.error.message}</Alert>
      ) : (
        <>
          <Card aria-labelledby="members-title">
            <CardHeader
              titleId="members-title"
              eyebrow="Team"
              title={`${members.data.members.length} ${members.data.members.length === 1 ? 'member' : 'members'}`}
            />
            <MemberList
              projectId={project.id}
              projectName={project.name}
              members={members.data.members}
              role={project.role}
              email={email}
              onLeft={onLeft}
            />
          </Card>
          <Card aria-labelledby="invitations-title">
            <CardHeader titleId="invitations-title" eyebrow="On their way" title="Pending invitations" />
            <InvitationList
              projectId={project.id}
              invitations={members.data.invitations}
              canChange={mayChange}
            />
          </Card>
        </>
      )}
    </div>
  );
}
