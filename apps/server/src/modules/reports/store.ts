import type { ReportKind, ReportSubscription } from '@polyflow/contracts/reports';
import type { Kysely } from 'kysely';
import { type AccountDb, inTransaction, isUniqueViolation } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';

/** A member who wants a kind of report of a project (a member now: whoever left is not one). */
export type Subscriber = { projectId: string; projectName: string; userId: string; email: string };

/** A claim on one member's report of one period: held by `claimId` until the claim's end. */
export type ReportClaim = { id: string; claimId: string };

/** All SQL of the reports (tables `report_subscriptions` and `report_sends`, migration 010). */
export function createReportStore(db: AccountDb) {
  return {
    /** Every member of the project with their choice (off when never made), in the Members screen's order. */
    async listSubscriptions(projectId: string): Promise<ReportSubscription[]> {
      const rows = await db
        .selectFrom('project_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .leftJoin('report_subscriptions as s', (join) =>
          join.onRef('s.project_id', '=', 'm.project_id').onRef('s.user_id', '=', 'm.user_id'),
        )
        .select(['m.user_id', 'u.email', 'm.role', 'm.joined_at', 's.weekly', 's.monthly'])
        .where('m.project_id', '=', projectId)
        .execute();
      const rank = { owner: 0, admin: 1, viewer: 2 } as const;
      return rows
        .sort(
          (a, b) =>
            rank[a.role] - rank[b.role] ||
            a.joined_at.localeCompare(b.joined_at) ||
            (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0),
        )
        .map((row) => ({
          userId: row.user_id,
          email: row.email,
          weekly: Number(row.weekly ?? 0) === 1,
          monthly: Number(row.monthly ?? 0) === 1,
        }));
    },

    async upsert(
      projectId: string,
      userId: string,
      choice: { weekly: boolean; monthly: boolean },
      now: string,
    ) {
      const values = { weekly: choice.weekly ? 1 : 0, monthly: choice.monthly ? 1 : 0, updated_at: now };
      await db
        .insertInto('report_subscriptions')
        .values({ project_id: projectId, user_id: userId, ...values })
        .onConflict((conflict) => conflict.columns(['project_id', 'user_id']).doUpdateSet(values))
        .execute();
    },

    /** Turns one kind off; whether it was on. */
    async turnOff(projectId: string, userId: string, kind: ReportKind, now: string): Promise<boolean> {
      const result = await db
        .updateTable('report_subscriptions')
        .set({ [kind]: 0, updated_at: now })
        .where('project_id', '=', projectId)
        .where('user_id', '=', userId)
        .where(kind, '=', 1)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** A member left or was removed: their choices go (joining again starts with both off). */
    async forgetMember(projectId: string, userId: string): Promise<void> {
      await db
        .deleteFrom('report_subscriptions')
        .where('project_id', '=', projectId)
        .where('user_id', '=', userId)
        .execute();
    },

    async projectName(projectId: string): Promise<string | null> {
      const row = await db
        .selectFrom('projects')
        .select('name')
        .where('id', '=', projectId)
        .executeTakeFirst();
      return row?.name ?? null;
    },

    async userEmail(userId: string): Promise<string | null> {
      const row = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
      return row?.email ?? null;
    },

    /** Members who want `kind` (of one project, or of all), current members only. */
    async subscribers(kind: ReportKind, projectId?: string): Promise<Subscriber[]> {
      let query = db
        .selectFrom('report_subscriptions as s')
        .innerJoin('project_members as m', (join) =>
          join.onRef('m.project_id', '=', 's.project_id').onRef('m.user_id', '=', 's.user_id'),
        )
        .innerJoin('users as u', 'u.id', 's.user_id')
        .innerJoin('projects as p', 'p.id', 's.project_id')
        .select(['s.project_id', 'p.name', 's.user_id', 'u.email'])
        .where(`s.${kind}`, '=', 1);
      if (projectId) query = query.where('s.project_id', '=', projectId);
      const rows = await query.orderBy('s.project_id').orderBy('s.user_id').execute();
      return rows.map((row) => ({
        projectId: row.project_id,
        projectName: row.name,
        userId: row.user_id,
        email: row.email,
      }));
    },

    /** Members of the project whose report of the period is already sent. */
    async sentTo(projectId: string, kind: ReportKind, periodStart: string): Promise<Set<string>> {
      const rows = await db
        .selectFrom('report_sends')
        .select('user_id')
        .where('project_id', '=', projectId)
        .where('kind', '=', kind)
        .where('period_start', '=', periodStart)
        .where('state', '=', 'sent')
        .execute();
      return new Set(rows.map((row) => row.user_id));
    },

    /**
     * Claims the member's report of the period until `claimUntil`: a new row (unique by project, member,
     * kind and period start: two nodes cannot both insert it), or one whose earlier claim ran out unsent
     * (its node died mid-send), taken over by one conditional UPDATE. Null: sent, or another node holds it.
     */
    async claim(
      key: { projectId: string; userId: string; kind: ReportKind; periodStart: string },
      now: string,
      claimUntil: string,
    ): Promise<ReportClaim | null> {
      const claimId = newId();
      const id = newId();
      try {
        await db
          .insertInto('report_sends')
          .values({
            id,
            project_id: key.projectId,
            user_id: key.userId,
            kind: key.kind,
            period_start: key.periodStart,
            state: 'claimed',
            claim_id: claimId,
            claimed_until: claimUntil,
            sent_at: null,
          })
          .execute();
        return { id, claimId };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      const existing = await db
        .selectFrom('report_sends')
        .select(['id'])
        .where('project_id', '=', key.projectId)
        .where('user_id', '=', key.userId)
        .where('kind', '=', key.kind)
        .where('period_start', '=', key.periodStart)
        .executeTakeFirst();
      if (!existing) return null;
      const taken = await db
        .updateTable('report_sends')
        .set({ claim_id: claimId, claimed_until: claimUntil })
        .where('id', '=', existing.id)
        .where('state', '=', 'claimed')
        .where('claimed_until', '<', now)
        .executeTakeFirst();
      return taken.numUpdatedRows === 1n ? { id: existing.id, claimId } : null;
    },

    /**
     * Marks the claimed report sent and runs `enqueue` in the same transaction: the email is in the outbox
     * exactly when the row says sent. False (nothing written) when the claim was lost to another node.
     */
    async markSent(
      claim: ReportClaim,
      now: string,
      enqueue: (trx: Kysely<Database>) => Promise<void>,
    ): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const result = await trx
          .updateTable('report_sends')
          .set({ state: 'sent', sent_at: now })
          .where('id', '=', claim.id)
          .where('claim_id', '=', claim.claimId)
          .where('state', '=', 'claimed')
          .executeTakeFirst();
        if (result.numUpdatedRows !== 1n) return false;
        await enqueue(trx);
        return true;
      });
    },

    /** Gives a claim back at once (building the report failed): the next pass tries again. */
    async release(claim: ReportClaim, now: string): Promise<void> {
      await db
        .updateTable('report_sends')
        .set({ claimed_until: now })
        .where('id', '=', claim.id)
        .where('claim_id', '=', claim.claimId)
        .where('state', '=', 'claimed')
        .execute();
    },
  };
}

export type ReportStore = ReturnType<typeof createReportStore>;
