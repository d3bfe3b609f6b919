import type { GrantableRole, Member, Role } from '@polyflow/contracts/members';
import { useEffect, useId, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { focusAfterRemoval } from '../../../components/ui/focus-after-removal';
import { Crown, LogOut, UserMinus } from '../../../components/ui/icons';
import { Modal } from '../../../components/ui/modal';
import { announce, focusSoon } from '../../../lib/announce';
import { formatDate } from '../../../lib/format';
import { canManage, isOwner, ROLE_LABELS } from '../../../lib/roles';
import { useChangeMemberRole } from '../api/change-member-role';
import { useRemoveMember } from '../api/remove-member';
import { useTransferOwnership } from '../api/transfer-ownership';
import { RoleSelect } from './role-select';

interface MemberListProps {
  projectId: string;
  projectName: string;
  members: Member[];
  /** The caller's role and address: what they may do, and which row is theirs. */
  role: Role;
  email: string;
  onLeft: () => void;
}

type Pending = { kind: 'remove' | 'leave' | 'transfer'; member: Member };

/**
 * The project's people. Admins and the owner change roles and remove members (never the owner); the
 * owner hands the project to an admin; anyone but the owner leaves.
 */
export function MemberList({ projectId, projectName, members, role, email, onLeft }: MemberListProps) {
  const dialogTextId = useId();
  const [pending, setPending] = useState<Pending | null>(null);
  const changeRole = useChangeMemberRole();
  const remove = useRemoveMember();
  const transfer = useTransferOwnership();
  const error = changeRole.error ?? remove.error ?? transfer.error;

  const list = useRef<HTMLUListElement>(null);
  const confirm = () => {
    if (!pending) return;
    const { kind, member } = pending;
    const done = { onSettled: () => setPending(null) };
    if (kind === 'transfer') transfer.mutate({ projectId, userId: member.userId }, done);
    else
      remove.mutate(
        { projectId, userId: member.userId, isLeaving: kind === 'leave' },
        {
          ...done,
          onSuccess: () => {
            if (kind === 'leave') {
              onLeft();
              return;
            }
            announce(`${member.email} removed`);
            // Its Remove button went with the row: focus the next member's row, else the previous one.
            focusAfterRemoval({
              list: () => list.current,
              removedKey: member.userId,
              index: members.findIndex((listed) => listed.userId === member.userId),
              control: 'button[aria-label^="Remove "]',
              fallback: () => list.current,
            });
          },
        },
      );
  };
  // A role chosen in the select is saved by its Save button, never by the choice alone: a closed select
  // changes its value on an arrow key, so a keyboard user reading the options would change the role.
  const setRole = (member: Member, next: GrantableRole, onSaved: () => void) =>
    changeRole.mutate(
      { projectId, userId: member.userId, role: next },
      {
        onSuccess: () => {
          announce(`${member.email} is now ${ROLE_LABELS[next]}`);
          onSaved();
        },
      },
    );

  return (
    <>
      {error && <Alert tone="error">{error.message}</Alert>}
      <ul
        ref={list}
        aria-label="Members"
        className="flex flex-col divide-y divide-slate-100 rounded-lg ring-1 ring-inset ring-slate-200"
      >
        {members.map((member) => {
          const isSelf = member.email === email;
          const isMemberOwner = member.role === 'owner';
          return (
            <li
              key={member.userId}
              data-item-key={member.userId}
              className="flex flex-wrap items-center justify-between gap-3 px-3 py-2.5"
            >
              <span className="flex min-w-0 flex-1 flex-col">
                <span className="flex min-w-0 items-center gap-2 text-sm font-medium text-slate-800">
                  <span className="truncate">{member.email}</span>
                  {isSelf && <span className="shrink-0 text-xs font-normal text-slate-500">(you)</span>}
                </span>
                <span className="text-xs text-slate-500">Joined {formatDate(member.joinedAt)}</span>
              </span>
              <span className="flex flex-wrap items-center gap-2">
                {isMemberOwner || !canManage(role) ? (
                  <Badge>{ROLE_LABELS[member.role]}</Badge>
                ) : (
                  <MemberRole
                    member={member}
                    isSaving={changeRole.isPending && changeRole.variables?.userId === member.userId}
                    onSave={setRole}
                  />
                )}
                {isOwner(role) && member.role === 'admin' && (
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Make ${member.email} the owner`}
                    onClick={() => setPending({ kind: 'transfer', member })}
                  >
                    <Crown aria-hidden="true" className="size-3.5" />
                    Make owner
                  </Button>
                )}
                {isSelf && !isMemberOwner && (
                  <Button
                    size="sm"
                    variant="danger-outline"
                    onClick={() => setPending({ kind: 'leave', member })}
                  >
                    <LogOut aria-hidden="true" className="size-3.5" />
                    Leave
                  </Button>
                )}
                {!isSelf && !isMemberOwner && canManage(role) && (
                  <Button
                    size="sm"
                    variant="danger-outline"
                    aria-label={`Remove ${member.email}`}
                    onClick={() => setPending({ kind: 'remove', member })}
                  >
                    <UserMinus aria-hidden="true" className="size-3.5" />
                    Remove
                  </Button>
                )}
              </span>
            </li>
          );
        })}
      </ul>

      <Modal
        isOpen={pending !== null}
        title={
          pending?.kind === 'transfer'
            ? 'Transfer the project?'
            : pending?.kind === 'leave'
              ? 'Leave this project?'
              : 'Remove this member?'
        }
        onClose={() => setPending(null)}
        descriptionId={dialogTextId}
      >
        {pending && (
          <div className="flex flex-col gap-4">
            <p id={dialogTextId} className="text-sm text-slate-700">
              {pending.kind === 'transfer' ? (
                <>
                  <strong>{pending.member.email}</strong> becomes the owner of {projectName}; you become an
                  admin and can no longer delete the project or transfer it.
                </>
              ) : pending.kind === 'leave' ? (
                <>You lose access to {projectName} at once. An admin can invite you again.</>
              ) : (
                <>
                  <strong>{pending.member.email}</strong> loses access to {projectName} at once, their open
                  live view included.
                </>
              )}
            </p>
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => setPending(null)}>
                Cancel
              </Button>
              <Button
                variant={pending.kind === 'transfer' ? 'primary' : 'danger'}
                isLoading={remove.isPending || transfer.isPending}
                onClick={confirm}
              >
                {pending.kind === 'transfer' ? 'Transfer' : pending.kind === 'leave' ? 'Leave' : 'Remove'}
              </Button>
            </div>
          </div>
        )}
      </Modal>
    </>
  );
}

/** A member's role: the select chooses, Save (shown once the choice differs) changes it. */
function MemberRole({
  member,
  isSaving,
  onSave,
}: {
  member: Member;
  isSaving: boolean;
  onSave: (member: Member, role: GrantableRole, onSaved: () => void) => void;
}) {
  const current: GrantableRole = member.role === 'admin' ? 'admin' : 'viewer';
  const [chosen, setChosen] = useState<GrantableRole>(current);
  const select = useRef<HTMLDivElement>(null);
  // Another change of the list (a save, another tab) shows the stored role.
  useEffect(() => setChosen(current), [current]);
  const returnFocus = () => focusSoon(() => select.current?.querySelector('select'));
  return (
    <span ref={select} className="flex items-center gap-2">
      <RoleSelect label={`Role of ${member.email}`} hideLabel value={chosen} onChange={setChosen} />
      {chosen !== current && (
        <Button
          size="sm"
          aria-label={`Save the role of ${member.email}`}
          isLoading={isSaving}
          onClick={() => onSave(member, chosen, returnFocus)}
        >
          Save
        </Button>
      )}
    </span>
  );
}
