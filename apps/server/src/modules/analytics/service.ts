import type {
  AnalyticsOverview,
  AverageBucket,
  ContractFunctionCalls,
  Share,
  TimeBucket,
  TransactionDetail,
  TransactionPage,
} from '@polyflow/contracts/analytics';
import type { LiveActivity } from '@polyflow/contracts/live';
import type { ProjectAccess } from '../../lib/access.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { decodeCursor, encodeCursor } from '../../reading/cursor.ts';
import {
  type BucketedRange,
  bucketRange,
  type ComparableRangeInput,
  comparedRange,
  daysIn,
  fillBuckets,
  needsSpan,
  previousPeriod,
  type RangeInput,
  resolveRange,
  type TimeRange,
} from '../../reading/time-range.ts';
import type { AnalyticsQuestions, PageRow, ReferrerRow } from '../event-store/analytics-questions.ts';
import { functionNameOf } from './known-selectors.ts';
import { toTransactionDetail, toTransactionRow } from './transaction-record.ts';

export type SeriesInput = ComparableRangeInput & { granularity?: string | null };
export type CountSeries = 'connectedWallets' | 'newWallets' | 'transactions' | 'failedTransactions';

export type AnalyticsServiceDeps = {
  projects: ProjectAccess;
  /** The event store's read side: the questions this screen asks. */
  store: AnalyticsQuestions;
  clock?: Clock;
};

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;

const MINUTE_MS = 60_000;
/** The Live screen's window: the current minute and the 29 before it. */
const LIVE_MINUTES = 30;

const isFailure = (status: string) => status === 'reverted' || status === 'failed';

const ratio = (numerator: number, denominator: number): number | null =>
  denominator > 0 ? numerator / denominator : null;

/** The Analytics screen's figures. Every call first checks that the caller owns the project. */
export function createAnalyticsService({ projects, store, clock = systemClock }: AnalyticsServiceDeps) {
  /**
   * Owner check, then the range with open ends closed ("all time" needs the project's event span); with
   * `previous`, the period before it: the same questions over a shifted range, whatever the engine.
   */
  async function ownedRange(
    userId: string,
    projectId: string,
    input: ComparableRangeInput,
  ): Promise<TimeRange> {
    return (await zonedRange(userId, projectId, input)).range;
  }

  /** As `ownedRange`, with the project's time zone (its days and weeks: docs/timezone.md). */
  async function zonedRange(userId: string, projectId: string, input: ComparableRangeInput) {
    const { timeZone } = await projects.getProjectFor(userId, projectId);
    const span = needsSpan(input) ? await store.eventSpan(projectId) : null;
    const nowMs = clock().getTime();
    const range = comparedRange(resolveRange(input, span, nowMs, timeZone), input.previous === true, nowMs);
    return { range, timeZone };
  }

  /** The range in buckets of the granularity; whole days and weeks are the project's local ones. */
  async function bucketedRange(userId: string, projectId: string, input: SeriesInput) {
    const { range, timeZone } = await zonedRange(userId, projectId, input);
    return bucketRange(range, input.granularity, timeZone);
  }

  /** bucket index → count, from the question that answers the series. */
  async function countsOf(kind: CountSeries, projectId: string, range: BucketedRange) {
    if (kind === 'connectedWallets') return store.connectedWallets(projectId, range);
    if (kind === 'newWallets') return store.newWallets(projectId, range);
    const outcomes = await store.transactionOutcomes(projectId, range);
    const pick = kind === 'transactions' ? 'total' : 'failed';
    return new Map([...outcomes].map(([bucket, counts]) => [bucket, counts[pick]]));
  }

  async function countSeries(kind: CountSeries, userId: string, projectId: string, input: SeriesInput) {
    const range = await bucketedRange(userId, projectId, input);
    const values = await countsOf(kind, projectId, range);
    return fillBuckets(range, values, 0) satisfies TimeBucket[];
  }

  return {
    countSeries,

    async averageGasPrice(
      userId: string,
      projectId: string,
      input: SeriesInput & { chainId?: number | null },
    ): Promise<AverageBucket[]> {
      const range = await bucketedRange(userId, projectId, input);
      const values = await store.averageGasPrice(projectId, range, input.chainId ?? null);
      return fillBuckets<number | null>(range, values, null);
    },

    async overview(
      userId: string,
      projectId: string,
      input: ComparableRangeInput,
    ): Promise<AnalyticsOverview> {
      const { range, timeZone } = await zonedRange(userId, projectId, input);
      // Like with like: a range that runs past now (Today at 07:40) is compared with the same elapsed part
      // of the period before it (yesterday until 07:40), not with a whole one.
      const previous = previousPeriod(range, clock().getTime());
      const [outcomes, wallets, days] = await Promise.all([
        store.transactionOutcomes(projectId, bucketRange(range)),
        store.walletCounts(projectId, range),
        store.activeDays(projectId, range, previous, timeZone),
      ]);
      const counts = outcomes.get(0) ?? { total: 0, submitted: 0, failed: 0, attempted: 0 };
      // Days of the project's zone, a 23- or 25-hour day one each (docs/timezone.md).
      const dailyActiveWallets = days.walletDays / daysIn(range, timeZone);
      const previousDailyActiveWallets = days.previousWalletDays / daysIn(previous, timeZone);
      return {
        from: new Date(range.fromMs).toISOString(),
        to: new Date(range.toMs).toISOString(),
        totalTransactions: counts.total,
        connectedWallets: wallets.connected,
        newWallets: wallets.fresh,
        submittedTransactions: counts.submitted,
        failedTransactions: counts.failed,
        attemptedTransactions: counts.attempted,
        transactionFailRate: ratio(counts.failed, counts.attempted),
        dailyActiveWallets,
        averageTransactionsPerUserPerDay: ratio(counts.total, days.userDays),
        dailyActiveWalletsTrend: {
          current: dailyActiveWallets,
          previous: previousDailyActiveWallets,
          change: ratio(dailyActiveWallets - previousDailyActiveWallets, previousDailyActiveWallets),
          previousFrom: new Date(previous.fromMs).toISOString(),
          previousTo: new Date(previous.toMs).toISOString(),
        },
      };
    },

    async contractFunctions(
      userId: string,
      projectId: string,
      input: RangeInput & { limit: number },
    ): Promise<ContractFunctionCalls[]> {
      const range = await ownedRange(userId, projectId, input);
      const rows = await store.contractFunctions(projectId, range, input.limit);
      return rows.map((row) => ({ ...row, functionName: functionNameOf(row.selector) }));
    },

    async walletProviders(userId: string, projectId: string, input: RangeInput): Promise<Share[]> {
      const range = await ownedRange(userId, projectId, input);
      return store.walletProviders(projectId, range);
    },

    async countries(
      userId: string,
      projectId: string,
      input: RangeInput & { limit: number },
    ): Promise<Share[]> {
      const range = await ownedRange(userId, projectId, input);
      return store.usersByCountry(projectId, range, input.limit);
    },

    async browsers(
      userId: string,
      projectId: string,
      input: RangeInput & { limit: number },
    ): Promise<Share[]> {
      const range = await ownedRange(userId, projectId, input);
      return store.usersByBrowser(projectId, range, input.limit);
    },

    async topPages(
      userId: string,
      projectId: string,
      input: RangeInput & { limit: number },
    ): Promise<PageRow[]> {
      const range = await ownedRange(userId, projectId, input);
      return store.topPages(projectId, range, input.limit);
    },

    async topReferrers(
      userId: string,
      projectId: string,
      input: RangeInput & { limit: number },
    ): Promise<ReferrerRow[]> {
      const range = await ownedRange(userId, projectId, input);
      return store.topReferrers(projectId, range, input.limit);
    },

    /** The Live screen's tiles: the last 30 minutes, whole minutes, the current one last. */
    async liveActivity(userId: string, projectId: string): Promise<LiveActivity> {
      await projects.getProjectFor(userId, projectId);
      const toMs = (Math.floor(clock().getTime() / MINUTE_MS) + 1) * MINUTE_MS;
      const range = {
        fromMs: toMs - LIVE_MINUTES * MINUTE_MS,
        toMs,
        bucketMs: MINUTE_MS,
        bucketCount: LIVE_MINUTES,
      };
      const activity = await store.recentActivity(projectId, range);
      return {
        from: new Date(range.fromMs).toISOString(),
        to: new Date(range.toMs).toISOString(),
        activeUsers: activity.users,
        activeWallets: activity.wallets,
        eventsPerMinute: fillBuckets(range, activity.eventsPerBucket, 0),
      };
    },

    async transactionHistory(
      userId: string,
      projectId: string,
      input: RangeInput & { first: number; after?: string | null },
    ): Promise<TransactionPage> {
      const after = input.after ? decodeCursor(input.after) : null;
      const range = await ownedRange(userId, projectId, input);
      // One row more than asked tells whether there is a next page; the total is the overview's count.
      const [rows, outcomes] = await Promise.all([
        store.transactionHistory(projectId, range, { limit: input.first + 1, after }),
        store.transactionOutcomes(projectId, bucketRange(range)),
      ]);
      const page = rows.slice(0, input.first);
      const last = page[page.length - 1];
      return {
        rows: page.map(toTransactionRow),
        total: outcomes.get(0)?.total ?? 0,
        nextCursor:
          rows.length > input.first && last ? encodeCursor({ timeMs: last.timeMs, id: last.id }) : null,
      };
    },

    async transaction(
      userId: string,
      projectId: string,
      hashOrId: string,
    ): Promise<TransactionDetail | null> {
      await projects.getProjectFor(userId, projectId);
      const events = await store.transactionEvents(projectId, hashOrId);
      const detail = toTransactionDetail(events);
      if (!detail || detail.revertReason !== null || !isFailure(detail.status)) return detail;
      const reason = await store.revertErrorNear(projectId, {
        sessionId: events[0]?.sessionId ?? '',
        fromMs: Date.parse(detail.time),
        toMs: events.at(-1)?.timeMs ?? Date.parse(detail.time),
      });
      return { ...detail, revertReason: reason };
    },
  };
}
