import type { IncidentAssignee } from '@polyflow/contracts/incidents';
import type { Member, Role } from '@polyflow/contracts/members';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { announce, focusSoon } from '../../../lib/announce';
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
 * Who works on the incident. Admins and the owner pick any member (or nobody) and press Assign; a viewer
 * can take an unassigned incident and give up their own (ADR 067), and reads the rest.
 *
 * The select only chooses: Chromium fires `change` on each arrow key of a closed select, so committing on
 * change assigned the first member passed over (WCAG 3.2.2). Nothing here is disabled while a change is
 * sent, so focus stays where it is (WCAG 2.4.3).
 */
export function AssigneeControl({ projectId, incidentId, assignee, role, email }: AssigneeControlProps) {
  const id = useId();
  const members = useAssignableMembers(projectId);
  const userId = members.data?.find((member) => member.email === email)?.userId ?? null;
  const assign = useAssignIncident(projectId);
  const busy = assign.isPending;
  /** The member chosen in the select and not assigned yet; undefined while it shows the assignee. */
  const [choice, setChoice] = useState<string | undefined>(undefined);
  const selected = choice ?? assignee?.userId ?? '';
  const select = useRef<HTMLSelectElement>(null);
  const actions = useRef<HTMLDivElement>(null);
  const emailOf = (memberId: string) =>
    memberId === userId
      ? 'you'
      : (members.data?.find((member) => member.userId === memberId)?.email ?? memberId);

  /** `then` says where focus goes once the pressed button may have given its place to another. */
  const change = (next: string | null, then: () => HTMLElement | null | undefined) => {
    if (busy) return;
    if (next === (assignee?.userId ?? null)) {
      setChoice(undefined);
      announce(next ? `Already assigned to ${emailOf(next)}` : 'Already unassigned');
      return;
    }
    assign.mutate(
      { id: incidentId, userId: next },
      {
        onSuccess: () => {
          setChoice(undefined);
          announce(next ? `Incident assigned to ${emailOf(next)}` : 'Incident unassigned');
          focusSoon(then);
        },
      },
    );
  };
  // The button that replaced the one pressed, once the new assignee is on screen (not the pressed one, which
  // stays until then: focusing it would leave focus to fall when it goes).
  const firstAction = () => {
    const pressed = document.activeElement;
    return () => {
      const button = actions.current?.querySelector<HTMLElement>('button');
      return button === pressed ? null : button;
    };
  };

  const onAssign = (event: FormEvent) => {
    event.preventDefault();
    change(selected || null, () => null);
  };

  const isMine = userId !== null && assignee?.userId === userId;
  return (
    <div className="flex min-w-0 flex-col gap-2">
      {canManage(role) ? (
        <form onSubmit={onAssign} aria-label="Assignee" className="flex min-w-0 flex-wrap items-center gap-2">
          <label htmlFor={id} className="sr-only">
            Assign to
          </label>
          <select
            ref={select}
            id={id}
            value={selected}
            disabled={!members.data}
            onChange={(event) => setChoice(event.target.value)}
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
          <Button
            type="submit"
            size="sm"
            variant="secondary"
            isLoading={busy && assign.variables?.userId === (selected || null)}
          >
            Assign
          </Button>
          {!isMine && userId && (
            <Button
              size="sm"
              variant="secondary"
              // Assigned to me, the button goes: focus the select, which now says so.
              onClick={() => change(userId, () => select.current)}
              isLoading={busy && assign.variables?.userId === userId && choice === undefined}
            >
              Assign to me
            </Button>
          )}
        </form>
      ) : (
        <div ref={actions} className="flex min-w-0 flex-wrap items-center gap-2">
          <span className="min-w-0 wrap-anywhere text-slate-800">
            {assignee ? assignee.email : 'Unassigned'}
          </span>
          {/* Take it and Give it up replace each other: focus goes to the one that replaced it. */}
          {!assignee && userId && (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => change(userId, firstAction())}
              isLoading={busy}
            >
              Take it
            </Button>
          )}
          {isMine && (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => change(null, firstAction())}
              isLoading={busy}
            >
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
