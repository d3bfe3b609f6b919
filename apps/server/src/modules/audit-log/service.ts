import { randomBytes } from 'node:crypto';
import {
  AUDIT_PAGE_DEFAULT,
  type AuditAction,
  type AuditEntry,
  type AuditLog,
} from '@polyflow/contracts/members';
import type { AuditLogTable } from '../../db/schema.ts';
import { badRequest } from '../../errors.ts';
import type { Actor, AuditRecord, ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuditCursor, AuditLogStore } from './store.ts';

/** Entries are kept this long, then deleted by the hourly retention pass. */
export const AUDIT_LOG_RETENTION_DAYS = 365;
const DAY_MS = 86_400_000;
/** The CSV download reads the log in pages of this many. */
const CSV_PAGE = 500;

export type AuditLogService = ReturnType<typeof createAuditLogService>;

/**
 * Ids that sort as the entries were recorded: the millisecond, a counter within it (this node's), then
 * random bytes. Entries of one millisecond (a project's creation and its first key) keep their order.
 */
function sequentialIds() {
  let lastMs = -1;
  let counter = 0;
  return (ms: number): string => {
    counter = ms === lastMs ? counter + 1 : 0;
    lastMs = ms;
    const hex = (value: number, width: number) => value.toString(16).padStart(width, '0');
    return `${hex(ms, 12)}-${hex(counter, 6)}-${randomBytes(6).toString('hex')}`;
  };
}

const encodeCursor = ({ at, id }: AuditCursor) => Buffer.from(`${at}|${id}`).toString('base64url');

function decodeCursor(text: string): AuditCursor {
  const [at, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (!at || !id || rest.length > 0 || Number.isNaN(Date.parse(at))) {
    throw badRequest('Invalid before: pass the nextBefore of the previous page unchanged.', [
      { path: 'before', message: 'expected the nextBefore of the previous page' },
    ]);
  }
  return { at, id };
}

function toEntry(row: AuditLogTable): AuditEntry {
  let details: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.details);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      details = parsed as Record<string, unknown>;
  } catch {
    // Written by record() below, always an object; nothing else writes the column.
  }
  return {
    id: row.id,
    at: row.at,
    actor: { userId: row.actor_user_id, email: row.actor_email },
    // Written by record() below from the AuditAction union only.
    action: row.action as AuditAction,
    target: row.target,
    details,
    ip: row.ip,
  };
}

/** RFC 4180: every field quoted; a leading = + - @ is prefixed with ' so that spreadsheets show it as text. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

const CSV_HEADER = ['at', 'actor_email', 'actor_user_id', 'action', 'target', 'details', 'ip'];

export function auditEntryCsvRow(entry: AuditEntry): string {
  return [
    entry.at,
    entry.actor.email,
    entry.actor.userId,
    entry.action,
    entry.target ?? '',
    JSON.stringify(entry.details),
    entry.ip,
  ]
    .map(csvField)
    .join(',');
}

/**
 * The audit log: every change to a project (keys, domains, read tokens, retention, forget requests,
 * incident status, members, invitations, ownership, the project itself), who made it, when and from
 * which address. Admins and the owner read it; entries are kept a year.
 */
export function createAuditLogService({
  store,
  projects,
  clock,
}: {
  store: AuditLogStore;
  projects: ProjectAccess;
  clock: Clock;
}) {
  const nextId = sequentialIds();
  return {
    async record({ projectId, actor, action, target = null, details = {} }: AuditRecord): Promise<void> {
      const at = clock();
      await store.insert({
        id: nextId(at.getTime()),
        project_id: projectId,
        at: at.toISOString(),
        actor_user_id: actor.id,
        actor_email: actor.email,
        action,
        target,
        details: JSON.stringify(details),
        ip: actor.ip,
      });
    },

    /** One page, newest first; `nextBefore` is null on the last one. */
    async page(
      actor: Pick<Actor, 'id'>,
      projectId: string,
      { before, limit = AUDIT_PAGE_DEFAULT }: { before?: string; limit?: number },
    ): Promise<AuditLog> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      const cursor = before === undefined ? null : decodeCursor(before);
      // One more than asked says whether there is a next page.
      const rows = await store.page(projectId, cursor, limit + 1);
      const entries = rows.slice(0, limit).map(toEntry);
      const last = entries.at(-1);
      return { entries, nextBefore: rows.length > limit && last ? encodeCursor(last) : null };
    },

    /** The whole log (a year at most) as CSV lines, newest first, read a page at a time. */
    async *csv(actor: Pick<Actor, 'id'>, projectId: string): AsyncGenerator<string> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      yield `${CSV_HEADER.join(',')}\r\n`;
      let cursor: AuditCursor | null = null;
      for (;;) {
        const rows = await store.page(projectId, cursor, CSV_PAGE);
        if (rows.length > 0) yield rows.map((row) => `${auditEntryCsvRow(toEntry(row))}\r\n`).join('');
        const last = rows.at(-1);
        if (rows.length < CSV_PAGE || !last) return;
        cursor = { at: last.at, id: last.id };
      }
    },

    /** How many entries with one of `actions` the project has had in the last `windowMs`. */
    countRecent(projectId: string, actions: readonly AuditAction[], windowMs: number): Promise<number> {
      return store.countSince(projectId, actions, new Date(clock().getTime() - windowMs).toISOString());
    },

    /** Deletes entries older than a year (the hourly retention pass); answers how many. */
    purgeExpired(): Promise<number> {
      return store.deleteBefore(
        new Date(clock().getTime() - AUDIT_LOG_RETENTION_DAYS * DAY_MS).toISOString(),
      );
    },
  };
}
