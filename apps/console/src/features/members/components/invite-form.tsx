import type { GrantableRole } from '@polyflow/contracts/members';
import { type FormEvent, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { useInviteMember } from '../api/invite-member';
import { RoleSelect } from './role-select';

/** An address and a role; the server emails the link. Errors (409, limits) show under the form. */
export function InviteForm({ projectId }: { projectId: string }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<GrantableRole>('viewer');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const invite = useInviteMember();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!address) return;
    invite.mutate(
      { projectId, email: address, role },
      {
        onSuccess: (created) => {
          setEmail('');
          setSentTo(created.email);
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} aria-label="Invite a member" className="flex flex-col gap-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <Input
          label="Email address"
          type="email"
          placeholder="colleague@example.com"
          autoComplete="off"
          maxLength={254}
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            setSentTo(null);
          }}
          className="sm:flex-1"
        />
        <RoleSelect label="Role" value={role} onChange={setRole} />
        <Button type="submit" disabled={email.trim() === ''} isLoading={invite.isPending}>
          Send invitation
        </Button>
      </div>
      {invite.isError && <Alert tone="error">{invite.error.message}</Alert>}
      {sentTo && !invite.isError && (
        <Alert tone="success">Invitation sent to {sentTo}. The link works once, for 7 days.</Alert>
      )}
    </form>
  );
}
