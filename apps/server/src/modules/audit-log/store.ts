import type { AccountDb } from '../../db/database.ts';
import type { AuditLogTable } from '../../db/schema.ts';

export type AuditLogStore = ReturnType<typeof createAuditLogStore>;

/** Where a page starts: entries strictly older than this one (newest first, ties by id). */
export type AuditCursor = { at: string; id: string };

/** All SQL about the audit log. */
export function createAuditLogStore(db: AccountDb) {
  return {
    async insert(row: AuditLogTable): Promise<void> {
      await db.insertInto('audit_log').values(row).execute();
    },

    /** Up to `limit` entries of the project, newest first, before the cursor. */
    async page(projectId: string, before: AuditCursor | null, limit: number): Promise<AuditLogTable[]> {
      let query = db.selectFrom('audit_log').selectAll().where('project_id', '=', projectId);
      if (before) {
        query = query.where((eb) =>
          eb.or([eb('at', '<', before.at), eb.and([eb('at', '=', before.at), eb('id', '<', before.id)])]),
        );
      }
      return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    /** How many entries of the project since `since` have one of `actions` (the invitation emails' limit). */
    async countSince(projectId: string, actions: readonly string[], since: string): Promise<number> {
      const row = await db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('project_id', '=', projectId)
        .where('action', 'in', [...actions])
        .where('at', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Deletes every entry older than `before`; answers how many. */
    async deleteBefore(before: string): Promise<number> {
      const result = await db.deleteFrom('audit_log').where('at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
