import type { Invitation } from '@polyflow/contracts/members';
import { useId, useRef } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { byId, focusAfterRemoval } from '../../../components/ui/focus-after-removal';
import { Mail, RotateCw, X } from '../../../components/ui/icons';
import { announce } from '../../../lib/announce';
import { formatDateTime } from '../../../lib/format';
import { ROLE_LABELS } from '../../../lib/roles';
import { useResendInvitation } from '../api/resend-invitation';
import { useRevokeInvitation } from '../api/revoke-invitation';

interface InvitationListProps {
  projectId: string;
  invitations: Invitation[];
  /** Admins and the owner resend and revoke; viewers only see them. */
  canChange: boolean;
}

/** Invitations sent and not yet accepted, revoked or expired. */
export function InvitationList({ projectId, invitations, canChange }: InvitationListProps) {
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const list = useRef<HTMLUListElement>(null);
  const emptyId = useId();
  const revokeInvitation = (invitation: Invitation, index: number) =>
    revoke.mutate(
      { projectId, invitationId: invitation.id },
      {
        onSuccess: () => {
          announce(`Invitation to ${invitation.email} revoked`);
          // Its Revoke button went with the row.
          focusAfterRemoval({
            list: () => list.current,
            removedKey: invitation.id,
            index,
            control: 'button[data-revoke]',
            fallback: byId(emptyId),
          });
        },
      },
    );
  if (invitations.length === 0) {
    return (
      <p
        id={emptyId}
        className="flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-600 ring-1 ring-inset ring-slate-200"
      >
        <Mail aria-hidden="true" className="size-4 text-indigo-600" />
        No pending invitations.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      {(resend.error ?? revoke.error) && (
        <Alert tone="error">{(resend.error ?? revoke.error)?.message}</Alert>
      )}
      {resend.isSuccess && <Alert tone="success">Sent again; the earlier link no longer works.</Alert>}
      <ul
        ref={list}
        aria-label="Pending invitations"
        className="flex flex-col divide-y divide-slate-100 rounded-lg ring-1 ring-inset ring-slate-200"
      >
        {invitations.map((invitation, index) => (
          <li
            key={invitation.id}
            data-item-key={invitation.id}
            className="flex flex-wrap items-center justify-between gap-3 px-3 py-2.5"
          >
            <span className="flex min-w-0 flex-1 flex-col">
              <span className="truncate text-sm font-medium text-slate-800">{invitation.email}</span>
              <span className="text-xs text-slate-500">Expires {formatDateTime(invitation.expiresAt)}</span>
            </span>
            <span className="flex flex-wrap items-center gap-2">
              <Badge>{ROLE_LABELS[invitation.role]}</Badge>
              {canChange && (
                <>
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Resend the invitation to ${invitation.email}`}
                    isLoading={resend.isPending && resend.variables?.invitationId === invitation.id}
                    onClick={() => resend.mutate({ projectId, invitationId: invitation.id })}
                  >
                    <RotateCw aria-hidden="true" className="size-3.5" />
                    Resend
                  </Button>
                  <Button
                    size="sm"
                    variant="danger-outline"
                    data-revoke
                    aria-label={`Revoke the invitation to ${invitation.email}`}
                    isLoading={revoke.isPending && revoke.variables?.invitationId === invitation.id}
                    onClick={() => revokeInvitation(invitation, index)}
                  >
                    <X aria-hidden="true" className="size-3.5" />
                    Revoke
                  </Button>
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
