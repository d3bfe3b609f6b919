import type { AlertChannel, AlertDelivery } from '@polyflow/contracts/alert-channels';
import { type AccountDb, type DbEngine, inTransaction } from '../../db/database.ts';
import type { AlertChannelsTable, AlertDeliveriesTable } from '../../db/schema.ts';

export type AlertChannelStore = ReturnType<typeof createAlertChannelStore>;

/** A delivery claimed by this node: the notice, its channel and how many attempts it had (this one included). */
export type ClaimedDelivery = {
  id: string;
  noticeId: string;
  notice: string;
  attempts: number;
  expiresAt: string;
  channel: AlertChannelsTable;
};

export type AttemptRecord = {
  id: string;
  deliveryId: string;
  channelId: string;
  attempt: number;
  at: string;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
  delivered: boolean;
};

/** Lines of the delivery log a channel's route answers with. */
export const DELIVERY_LOG_LIMIT = 200;

const toChannel = (row: AlertChannelsTable): AlertChannel => ({
  id: row.id,
  type: row.type,
  name: row.name,
  url: row.url,
  memberIds: JSON.parse(row.member_ids) as string[],
  createdAt: row.created_at,
});

const countOf = (row: { count: string | number | bigint } | undefined) => Number(row?.count ?? 0);

/** All SQL about alert channels and their deliveries (migration 008), portable to SQLite and PostgreSQL. */
export function createAlertChannelStore(db: AccountDb, engine: DbEngine) {
  return {
    /**
     * Inserts the channel unless the project has `max` already: counted and inserted in one transaction
     * (on PostgreSQL the project's row is locked first, so two requests at once cannot both pass).
     */
    async insertWithin(row: AlertChannelsTable, max: number): Promise<AlertChannel | null> {
      return inTransaction(db, async (trx) => {
        await trx
          .selectFrom('projects')
          .select('id')
          .where('id', '=', row.project_id)
          .$call((query) => (engine === 'postgres' ? query.forUpdate() : query))
          .execute();
        const count = countOf(
          await trx
            .selectFrom('alert_channels')
            .select((eb) => eb.fn.countAll<string | number>().as('count'))
            .where('project_id', '=', row.project_id)
            .executeTakeFirst(),
        );
        if (count >= max) return null;
        await trx.insertInto('alert_channels').values(row).execute();
        return toChannel(row);
      });
    },

    async listByProject(projectId: string): Promise<AlertChannel[]> {
      const rows = await db
        .selectFrom('alert_channels')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toChannel);
    },

    async find(projectId: string, channelId: string): Promise<AlertChannelsTable | null> {
      const row = await db
        .selectFrom('alert_channels')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', channelId)
        .executeTakeFirst();
      return row ?? null;
    },

    /** The channels among `ids` that belong to the project. */
    async findMany(projectId: string, ids: readonly string[]): Promise<AlertChannelsTable[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom('alert_channels')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', 'in', [...ids])
        .execute();
    },

    /**
     * The removed channel's name, or null when there was no such channel (its deliveries go with it). The
     * project's rules stop naming it in the same transaction: a rule lists only channels that exist, so
     * that saving it back as listed is not refused for an unknown channel.
     */
    async delete(projectId: string, channelId: string): Promise<string | null> {
      return inTransaction(db, async (trx) => {
        const row = await trx
          .deleteFrom('alert_channels')
          .where('project_id', '=', projectId)
          .where('id', '=', channelId)
          .returning('name')
          .executeTakeFirst();
        if (!row) return null;
        const rules = await trx
          .selectFrom('alert_rules')
          .select(['id', 'channel_ids'])
          .where('project_id', '=', projectId)
          .where('channel_ids', 'like', `%"${channelId}"%`)
          .execute();
        for (const rule of rules) {
          const kept = (JSON.parse(rule.channel_ids) as string[]).filter((id) => id !== channelId);
          await trx
            .updateTable('alert_rules')
            .set({ channel_ids: JSON.stringify(kept) })
            .where('id', '=', rule.id)
            .execute();
        }
        return row.name;
      });
    },

    /** Of `userIds`, those who are members of the project, with their addresses. */
    async membersAmong(
      projectId: string,
      userIds: readonly string[],
    ): Promise<{ id: string; email: string }[]> {
      if (userIds.length === 0) return [];
      return db
        .selectFrom('project_members')
        .innerJoin('users', 'users.id', 'project_members.user_id')
        .select(['users.id as id', 'users.email as email'])
        .where('project_members.project_id', '=', projectId)
        .where('project_members.user_id', 'in', [...userIds])
        .execute();
    },

    /** One delivery per channel, in one transaction; a notice enqueued twice for a channel stays one. */
    async insertDeliveries(rows: AlertDeliveriesTable[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto('alert_deliveries')
        .values(rows)
        .onConflict((conflict) => conflict.columns(['notice_id', 'channel_id']).doNothing())
        .execute();
    },

    /**
     * Claims up to `limit` deliveries due at `now` for this node until `claimUntil`, counting the attempt.
     * Each claim is one conditional UPDATE (pending, and not claimed or its lease ran out), so two nodes
     * (or a node and its restart) never both hold one.
     */
    async claimDue(
      nodeId: string,
      now: string,
      claimUntil: string,
      limit: number,
      busyChannelIds: ReadonlySet<string> = new Set(),
      /** Deliveries under way on this node per project, and how many one project may hold at once. */
      share: { busyByProject: ReadonlyMap<string, number>; perProject: number } = {
        busyByProject: new Map(),
        perProject: Number.POSITIVE_INFINITY,
      },
    ): Promise<ClaimedDelivery[]> {
      if (limit <= 0) return [];
      const busy = [...busyChannelIds];
      const load = new Map(share.busyByProject);
      const full = [...load].filter(([, count]) => count >= share.perProject).map(([project]) => project);
      const due = await db
        .selectFrom('alert_deliveries')
        .innerJoin('alert_channels', 'alert_channels.id', 'alert_deliveries.channel_id')
        .select([
          'alert_deliveries.id as id',
          'alert_deliveries.channel_id as channel_id',
          'alert_channels.project_id',
        ])
        .where('alert_deliveries.state', '=', 'pending')
        .where('alert_deliveries.next_attempt_at', '<=', now)
        .where((eb) =>
          eb.or([
            eb('alert_deliveries.claimed_until', 'is', null),
            eb('alert_deliveries.claimed_until', '<', now),
          ]),
        )
        .$call((query) =>
          busy.length > 0 ? query.where('alert_deliveries.channel_id', 'not in', busy) : query,
        )
        .$call((query) =>
          full.length > 0 ? query.where('alert_channels.project_id', 'not in', full) : query,
        )
        .orderBy('alert_deliveries.next_attempt_at')
        .limit(limit * 5)
        .execute();
      const claimed: ClaimedDelivery[] = [];
      // One delivery per channel at a time on this node: a receiver that hangs holds one slot, not all. And
      // at most `perProject` per project: one project's hanging receivers leave the other slots to the others.
      const taken = new Set<string>();
      for (const { id, channel_id, project_id } of due) {
        if (claimed.length >= limit) break;
        if (taken.has(channel_id)) continue;
        if ((load.get(project_id) ?? 0) >= share.perProject) continue;
        const result = await db
          .updateTable('alert_deliveries')
          .set((eb) => ({ claimed_until: claimUntil, claimed_by: nodeId, attempts: eb('attempts', '+', 1) }))
          .where('id', '=', id)
          .where('state', '=', 'pending')
          .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
          .executeTakeFirst();
        if (result.numUpdatedRows !== 1n) continue;
        taken.add(channel_id);
        load.set(project_id, (load.get(project_id) ?? 0) + 1);
        const row = await db
          .selectFrom('alert_deliveries')
          .innerJoin('alert_channels', 'alert_channels.id', 'alert_deliveries.channel_id')
          .selectAll('alert_channels')
          .select([
            'alert_deliveries.id as delivery_id',
            'alert_deliveries.notice_id',
            'alert_deliveries.notice',
            'alert_deliveries.attempts',
            'alert_deliveries.expires_at',
          ])
          .where('alert_deliveries.id', '=', id)
          .executeTakeFirst();
        // The channel was deleted meanwhile: its deliveries went with it.
        if (!row) continue;
        const { delivery_id, notice_id, notice, attempts, expires_at, ...channel } = row;
        claimed.push({
          id: delivery_id,
          noticeId: notice_id,
          notice,
          attempts,
          expiresAt: expires_at,
          channel,
        });
      }
      return claimed;
    },

    /** Logs an attempt and moves the delivery on: delivered, failed for good, or due again at `retryAt`. */
    async recordAttempt(
      attempt: AttemptRecord,
      next: { state: 'delivered' } | { state: 'failed' } | { state: 'pending'; retryAt: string },
    ): Promise<void> {
      await inTransaction(db, async (trx) => {
        const updated = await trx
          .updateTable('alert_deliveries')
          .set(
            next.state === 'pending'
              ? { next_attempt_at: next.retryAt, claimed_until: null, claimed_by: null }
              : { state: next.state, claimed_until: null, claimed_by: null },
          )
          .where('id', '=', attempt.deliveryId)
          .executeTakeFirst();
        // Deleted with its channel while it was being delivered: nothing to log.
        if (updated.numUpdatedRows !== 1n) return;
        await trx
          .insertInto('alert_delivery_attempts')
          .values({
            id: attempt.id,
            delivery_id: attempt.deliveryId,
            channel_id: attempt.channelId,
            attempt: attempt.attempt,
            at: attempt.at,
            status_code: attempt.statusCode,
            latency_ms: attempt.latencyMs,
            error: attempt.error?.slice(0, 500) ?? null,
            delivered: attempt.delivered ? 1 : 0,
          })
          .execute();
      });
    },

    /** Gives claimed deliveries back (shutdown during a delivery): the next start tries them at once. */
    async release(ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('alert_deliveries')
        .set((eb) => ({ claimed_until: null, claimed_by: null, attempts: eb('attempts', '-', 1) }))
        .where('id', 'in', [...ids])
        .where('state', '=', 'pending')
        .execute();
    },

    /**
     * Frees what `nodeId` held when it stopped without giving it back (kill -9, a crash): only this node
     * (its DATA_DIR on this host) holds claims under that id, so none of them is under way any more.
     */
    async releaseHeldBy(nodeId: string): Promise<number> {
      const result = await db
        .updateTable('alert_deliveries')
        .set({ claimed_until: null, claimed_by: null })
        .where('claimed_by', '=', nodeId)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** The channel's log: attempts made and the next one of each pending notice, newest first. */
    async deliveryLog(channelId: string): Promise<AlertDelivery[]> {
      const [attempts, pending] = await Promise.all([
        db
          .selectFrom('alert_delivery_attempts')
          .innerJoin('alert_deliveries', 'alert_deliveries.id', 'alert_delivery_attempts.delivery_id')
          .select([
            'alert_delivery_attempts.id',
            'alert_deliveries.notice_id',
            'alert_deliveries.notice_type',
            'alert_deliveries.state as delivery_state',
            'alert_delivery_attempts.attempt',
            'alert_delivery_attempts.at',
            'alert_delivery_attempts.status_code',
            'alert_delivery_attempts.latency_ms',
            'alert_delivery_attempts.error',
            'alert_delivery_attempts.delivered',
          ])
          .where('alert_delivery_attempts.channel_id', '=', channelId)
          .orderBy('alert_delivery_attempts.at', 'desc')
          .orderBy('alert_delivery_attempts.attempt', 'desc')
          .limit(DELIVERY_LOG_LIMIT)
          .execute(),
        db
          .selectFrom('alert_deliveries')
          .select(['id', 'notice_id', 'notice_type', 'attempts', 'next_attempt_at', 'claimed_until'])
          .where('channel_id', '=', channelId)
          .where('state', '=', 'pending')
          .orderBy('next_attempt_at', 'desc')
          .limit(DELIVERY_LOG_LIMIT)
          .execute(),
      ]);
      const lines: AlertDelivery[] = [
        ...pending.map((row) => ({
          id: row.id,
          noticeId: row.notice_id,
          noticeType: row.notice_type,
          // A claimed delivery is being attempted now: that attempt, already counted.
          attempt: row.claimed_until === null ? row.attempts + 1 : row.attempts,
          at: row.next_attempt_at,
          statusCode: null,
          latencyMs: null,
          error: null,
          state: 'pending' as const,
        })),
        ...attempts.map((row) => ({
          id: row.id,
          noticeId: row.notice_id,
          noticeType: row.notice_type,
          attempt: row.attempt,
          at: row.at,
          statusCode: row.status_code,
          latencyMs: row.latency_ms,
          error: row.error,
          state: row.delivered ? ('delivered' as const) : ('failed' as const),
        })),
      ];
      lines.sort((a, b) => (a.at === b.at ? b.attempt - a.attempt : a.at < b.at ? 1 : -1));
      return lines.slice(0, DELIVERY_LOG_LIMIT);
    },

    /** Forgets finished deliveries (and their attempts) older than `before`. */
    async purgeFinishedBefore(before: string): Promise<number> {
      const result = await db
        .deleteFrom('alert_deliveries')
        .where('state', '!=', 'pending')
        .where('created_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async countPending(): Promise<number> {
      return countOf(
        await db
          .selectFrom('alert_deliveries')
          .select((eb) => eb.fn.countAll<string | number>().as('count'))
          .where('state', '=', 'pending')
          .executeTakeFirst(),
      );
    },
  };
}
