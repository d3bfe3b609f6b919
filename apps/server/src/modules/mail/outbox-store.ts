import type { Kysely } from 'kysely';
import type { AccountDb } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

export type OutboxRow = { id: string; message: string; attempts: number; expiresAt: string };

/** All SQL of the mail outbox (table `mail_outbox`, migration 003), portable to SQLite and PostgreSQL. */
export function createOutboxStore(db: AccountDb) {
  return {
    /** Stores one email; `within` is a transaction of the caller's (the email is kept only if it commits). */
    async insert(
      row: { id: string; message: string; createdAt: string; expiresAt: string },
      within: Kysely<Database> = db,
    ): Promise<void> {
      await within
        .insertInto('mail_outbox')
        .values({
          id: row.id,
          message: row.message,
          created_at: row.createdAt,
          expires_at: row.expiresAt,
          attempts: 0,
          next_attempt_at: row.createdAt,
          claimed_until: null,
          last_error: null,
        })
        .execute();
    },

    /**
     * Claims up to `limit` emails due at `now` for this node until `claimUntil`, counting the attempt.
     * Each claim is one conditional UPDATE, so two nodes (or a node and its restart) never both get one.
     */
    async claimDue(now: string, claimUntil: string, limit: number): Promise<OutboxRow[]> {
      const due = await db
        .selectFrom('mail_outbox')
        .select(['id', 'message', 'attempts', 'expires_at'])
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
        .orderBy('next_attempt_at')
        .limit(limit)
        .execute();
      const claimed: OutboxRow[] = [];
      for (const row of due) {
        const result = await db
          .updateTable('mail_outbox')
          .set((eb) => ({ claimed_until: claimUntil, attempts: eb('attempts', '+', 1) }))
          .where('id', '=', row.id)
          .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
          .executeTakeFirst();
        if (result.numUpdatedRows === 1n) {
          claimed.push({
            id: row.id,
            message: row.message,
            attempts: row.attempts + 1,
            expiresAt: row.expires_at,
          });
        }
      }
      return claimed;
    },

    async remove(id: string): Promise<void> {
      await db.deleteFrom('mail_outbox').where('id', '=', id).execute();
    },

    async retryLater(id: string, nextAttemptAt: string, error: string): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set({ next_attempt_at: nextAttemptAt, claimed_until: null, last_error: error.slice(0, 500) })
        .where('id', '=', id)
        .execute();
    },

    /** Gives claimed emails back (shutdown during a send): the next start sends them at once. */
    async release(ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.updateTable('mail_outbox').set({ claimed_until: null }).where('id', 'in', ids).execute();
    },

    async countWaiting(): Promise<number> {
      const row = await db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },
  };
}

export type OutboxStore = ReturnType<typeof createOutboxStore>;
