import type { AuditAction, AuditEntry } from '@polyflow/contracts/members';
import { formatDateTime, shownRelease } from '../../../lib/format';

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
  'funnel.create': 'Created a funnel',
  'funnel.update': 'Changed a funnel',
  'funnel.delete': 'Deleted a funnel',
  'goal.create': 'Added a goal',
  'goal.update': 'Changed a goal',
  'goal.delete': 'Deleted a goal',
  forget: 'Forgot a data subject',
  'read_token.create': 'Created a read token',
  'read_token.revoke': 'Revoked a read token',
  'write_token.create': 'Created a write token',
  'write_token.revoke': 'Revoked a write token',
  'sourcemaps.upload': 'Uploaded source maps for release',
  'sourcemaps.delete': 'Deleted the source maps of release',
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

/**
 * Actions whose target is a goal's, funnel's or annotation's id (docs/teams.md): an id means nothing to a
 * reader, so the entry names the thing when its details carry a `name`, and else says only "a goal".
 */
const ID_TARGET_ACTIONS = new Set<AuditAction>([
  'annotation.create',
  'annotation.update',
  'annotation.delete',
  'funnel.create',
  'funnel.update',
  'funnel.delete',
  'goal.create',
  'goal.update',
  'goal.delete',
]);

/** Actions whose target is a release's name, which may be blank or hold invisible characters (docs/source-maps.md). */
const RELEASE_TARGET_ACTIONS = new Set<AuditAction>(['sourcemaps.upload', 'sourcemaps.delete']);

/** What the entry names after its action: the target, a name for an id target, or nothing. */
function targetOf(entry: AuditEntry): { text: string | null; details: Record<string, unknown> } {
  // As the Source maps card shows it: quoted when blank or unclear, so the entry still names its release.
  if (RELEASE_TARGET_ACTIONS.has(entry.action) && entry.target !== null) {
    return { text: shownRelease(entry.target), details: entry.details };
  }
  if (!ID_TARGET_ACTIONS.has(entry.action)) {
    // Joining and leaving name the actor twice otherwise.
    const text = entry.target && entry.target !== entry.actor.email ? entry.target : null;
    return { text, details: entry.details };
  }
  const { name, ...details } = entry.details;
  return { text: typeof name === 'string' && name !== '' ? `“${name}”` : null, details };
}

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
      {entries.map((entry) => {
        const target = targetOf(entry);
        return (
          <li
            key={entry.id}
            className="grid gap-1 px-3 py-2.5 text-sm md:grid-cols-[11rem_1fr_9rem] md:gap-4"
          >
            <time dateTime={entry.at} className="text-xs text-slate-500 tabular-nums md:text-sm">
              {formatDateTime(entry.at)}
            </time>
            <span className="min-w-0 break-words text-slate-800">
              <strong className="font-semibold">{entry.actor.email}</strong> {ACTION_LABELS[entry.action]}
              {target.text && <span className="font-medium text-indigo-800"> {target.text}</span>}
              {Object.keys(target.details).length > 0 && (
                <span className="text-slate-500"> ({describe(target.details)})</span>
              )}
            </span>
            <span className="text-xs text-slate-500 tabular-nums md:text-right md:text-sm">{entry.ip}</span>
          </li>
        );
      })}
    </ol>
  );
}
