import type { AuditAction, AuditEntry } from '@polyflow/contracts/members';
import { formatDateTime } from '../../../lib/format';

const ACTION_LABELS: Record<AuditAction, string> = {
  'project.create': 'Created the project',
  'project.delete': 'Deleted the project',
  'api_key.create': 'Created a new API key',
  'api_key.revoke': 'Revoked the API key',
  'domain.add': 'Added a domain',
  'domain.remove': 'Removed a domain',
  'retention.set': 'Changed the retention',
  'timezone.set': 'Changed the time zone',
  'annotation.create': 'Added an annotation',
  'annotation.update': 'Changed an annotation',
  'annotation.delete': 'Deleted an annotation',
  'goal.create': 'Added a goal',
  'goal.update': 'Changed a goal',
  'goal.delete': 'Deleted a goal',
  forget: 'Forgot a data subject',
  'read_token.create': 'Created a read token',
  'read_token.revoke': 'Revoked a read token',
  'write_token.create': 'Created a write token',
  'write_token.revoke': 'Revoked a write token',
  'sourcemaps.upload': 'Uploaded source maps for release',
  'incident.status': 'Changed an incident status',
  'incident.assign': 'Assigned an incident',
  'wallet_codes.set': 'Changed the ignored wallet codes',
  'invitation.create': 'Invited',
  'invitation.resend': 'Resent an invitation to',
  'invitation.revoke': 'Revoked the invitation of',
  'invitation.accept': 'Joined the project',
  'member.role': 'Changed the role of',
  'member.remove': 'Removed',
  'member.leave': 'Left the project',
  'ownership.transfer': 'Transferred the project to',
  'alert_channel.create': 'Added an alert channel',
  'alert_channel.delete': 'Deleted an alert channel',
};

/** `{from: "viewer", to: "admin"}` → `from viewer, to admin`. */
function describe(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => {
      if (Array.isArray(value)) return `${key} ${value.length === 0 ? 'none' : value.join(' ')}`;
      return `${key} ${value === null ? 'none' : String(value)}`;
    })
    .join(', ');
}

/** One row per entry; on a phone each row wraps into a small block. */
export function AuditLogTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <ol
      aria-label="Audit log entries"
      className="flex flex-col divide-y divide-slate-100 rounded-lg ring-1 ring-inset ring-slate-200"
    >
      {entries.map((entry) => (
        <li key={entry.id} className="grid gap-1 px-3 py-2.5 text-sm md:grid-cols-[11rem_1fr_9rem] md:gap-4">
          <time dateTime={entry.at} className="text-xs text-slate-500 tabular-nums md:text-sm">
            {formatDateTime(entry.at)}
          </time>
          <span className="min-w-0 break-words text-slate-800">
            <strong className="font-semibold">{entry.actor.email}</strong> {ACTION_LABELS[entry.action]}
            {/* Joining and leaving name the actor twice otherwise. */}
            {entry.target && entry.target !== entry.actor.email && (
              <span className="font-medium text-indigo-800"> {entry.target}</span>
            )}
            {Object.keys(entry.details).length > 0 && (
              <span className="text-slate-500"> ({describe(entry.details)})</span>
            )}
          </span>
          <span className="text-xs text-slate-500 tabular-nums md:text-right md:text-sm">{entry.ip}</span>
        </li>
      ))}
    </ol>
  );
}
