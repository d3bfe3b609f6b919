import type { IncidentAssignee } from '@polyflow/contracts/incidents';
import type { Member, Role } from '@polyflow/contracts/members';
import { useId } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { canManage } from '../../../lib/roles';
import { useAssignIncident } from '../api/assign-incident';
import { useAssignableMembers } from '../api/get-assignable-members';

interface AssigneeControlProps {
  projectId: string;
  incidentId: string;
  assignee: IncidentAssignee | null;
  role: Role;
  /** The signed-in user's email: who "me" is among the members. */
  email: string;
}

/**
 * Who works on the incident. Admins and the owner pick any member (or nobody); a viewer can take an
 * unassigned incident and give up their own (ADR 067), and reads the rest.
 */
export function AssigneeControl({ projectId, incidentId, assignee, role, email }: AssigneeControlProps) {
  const id = useId();
  const members = useAssignableMembers(projectId);
  const userId = members.data?.find((member) => member.email === email)?.userId ?? null;
  const assign = useAssignIncident(projectId);
  const busy = assign.isPending;
  const change = (next: string | null) => assign.mutate({ id: incidentId, userId: next });
  const isMine = userId !== null && assignee?.userId === userId;
  return (
    <div className="flex min-w-0 flex-col gap-2">
      {canManage(role) ? (
        <div className="flex min-w-0 items-center gap-2">
          <label htmlFor={id} className="sr-only">
            Assign to
          </label>
          <select
            id={id}
            value={assignee?.userId ?? ''}
            disabled={busy || !members.data}
            onChange={(event) => change(event.target.value || null)}
            className="h-9 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 focus:outline-2 focus:outline-indigo-500 disabled:bg-slate-50 sm:max-w-72"
          >
            <option value="">Unassigned</option>
            {(members.data ?? []).map((member: Member) => (
              <option key={member.userId} value={member.userId}>
                {member.email}
                {member.userId === userId ? ' (you)' : ''}
              </option>
            ))}
          </select>
          {!isMine && userId && (
            <Button size="sm" variant="secondary" onClick={() => change(userId)} isLoading={busy}>
              Assign to me
            </Button>
          )}
        </div>
      ) : (
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <span className="min-w-0 wrap-anywhere text-slate-800">
            {assignee ? assignee.email : 'Unassigned'}
          </span>
          {!assignee && userId && (
            <Button size="sm" variant="secondary" onClick={() => change(userId)} isLoading={busy}>
              Take it
            </Button>
          )}
          {isMine && (
            <Button size="sm" variant="secondary" onClick={() => change(null)} isLoading={busy}>
              Give it up
            </Button>
          )}
        </div>
      )}
      {members.isError && <Alert tone="error">Could not load the members: {members.error.message}</Alert>}
      {assign.isError && <Alert tone="error">Could not change the assignee: {assign.error.message}</Alert>}
    </div>
  );
}
