import {
  type AnalyticsFilters,
  AnalyticsFiltersSchema,
  type AnalyticsOverview,
  type AverageBucket,
  type ContractFunctionCalls,
  type Share,
  type TimeBucket,
  type TransactionDetail,
  type TransactionPage,
  type TransactionRow,
} from '@polyflow/contracts/analytics';
import type { LiveActivity } from '@polyflow/contracts/live';
import type { ProjectAccess } from '../../lib/access.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { decodeCursor, encodeCursor, type HistoryCursor } from '../../reading/cursor.ts';
import { parseFilters } from '../../reading/filters.ts';
import { functionNameOf } from '../../reading/known-selectors.ts';
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
import {
  type AnalyticsQuestions,
  type ExtraUserAttribute,
  isFiltered,
  type PageRow,
  type ReferrerRow,
} from '../event-store/analytics-questions.ts';
import { type HistoryFilterInput, parseHistoryFilter } from './history-filter.ts';
import { toTransactionDetail, toTransactionRow } from './transaction-record.ts';

/** The Analytics screen's filters as GraphQL hands them over: parsed with AnalyticsFiltersSchema. */
export type Filtered = { filters?: unknown };
export type SeriesInput = ComparableRangeInput & Filtered & { granularity?: string | null };
export type CountSeries = 'connectedWallets' | 'newWallets' | 'transactions' | 'failedTransactions';

export type AnalyticsServiceDeps = {
  projects: ProjectAccess;
  /** The event store's read side: the questions this screen asks. */
  store: AnalyticsQuestions;
  clock?: Clock;
};

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;

const MINUTE_MS = 60_000;
/** Transactions per read of the history's CSV: one page in memory at a time. */
const HISTORY_EXPORT_PAGE = 1000;
/** The Live screen's window: the current minute and the 29 before it. */
const LIVE_MINUTES = 30;

const isFailure = (status: string) => status === 'reverted' || status === 'failed';

/** The filters of a question's input (docs/analytics.md, "Filters"); a refused list is BAD_USER_INPUT. */
const filtersOf = (input: Filtered): AnalyticsFilters => parseFilters(AnalyticsFiltersSchema, input.filters);
/** Whether a list is set (an absent, null or empty list does not filter: docs/analytics.md, "Filters"). */
const hasFilter = (filters: AnalyticsFilters): boolean =>
  Object.values(filters).some((values) => Array.isArray(values) && values.length > 0);

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
  async function countsOf(
    kind: CountSeries,
    projectId: string,
    range: BucketedRange,
    filters: AnalyticsFilters,
  ) {
    if (kind === 'connectedWallets') return store.connectedWallets(projectId, range, filters);
    if (kind === 'newWallets') return store.newWallets(projectId, range, filters);
    const outcomes = await store.transactionOutcomes(projectId, range, filters);
    const pick = kind === 'transactions' ? 'total' : 'failed';
    return new Map([...outcomes].map(([bucket, counts]) => [bucket, counts[pick]]));
  }

  async function countSeries(kind: CountSeries, userId: string, projectId: string, input: SeriesInput) {
    const filters = filtersOf(input);
    const range = await bucketedRange(userId, projectId, input);
    const values = await countsOf(kind, projectId, range, filters);
    return fillBuckets(range, values, 0) satisfies TimeBucket[];
  }

  return {
    countSeries,

    async averageGasPrice(
      userId: string,
      projectId: string,
      input: SeriesInput & { chainId?: number | null },
    ): Promise<AverageBucket[]> {
      const filters = filtersOf(input);
      const range = await bucketedRange(userId, projectId, input);
      const values = await store.averageGasPrice(projectId, range, input.chainId ?? null, filters);
      return fillBuckets<number | null>(range, values, null);
    },

    async overview(
      userId: string,
      projectId: string,
      input: ComparableRangeInput & Filtered,
    ): Promise<AnalyticsOverview> {
      const filters = filtersOf(input);
      const { range, timeZone } = await zonedRange(userId, projectId, input);
      // Like with like: a range that runs past now (Today at 07:40) is compared with the same elapsed part
      // of the period before it (yesterday until 07:40), not with a whole one.
      const previous = previousPeriod(range, clock().getTime());
      // With filters, one query finds each period's passing sessions once for all three (ADR 086).
      const { counts, wallets, days } = hasFilter(filters)
        ? await store
            .filteredOverview(projectId, range, previous, timeZone, filters)
            .then(({ outcomes, ...rest }) => ({ counts: outcomes, ...rest }))
        : await Promise.all([
            store.transactionOutcomes(projectId, bucketRange(range), filters),
            store.walletCounts(projectId, range, filters),
            store.activeDays(projectId, range, previous, timeZone, filters),
          ]).then(([outcomes, wallets, days]) => ({
            counts: outcomes.get(0) ?? { total: 0, submitted: 0, failed: 0, attempted: 0 },
            wallets,
            days,
          }));
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
      input: RangeInput & Filtered & { limit: number },
    ): Promise<ContractFunctionCalls[]> {
      const range = await ownedRange(userId, projectId, input);
      const rows = await store.contractFunctions(projectId, range, input.limit, filtersOf(input));
      return rows.map((row) => ({ ...row, functionName: functionNameOf(row.selector) }));
    },

    async walletProviders(userId: string, projectId: string, input: RangeInput & Filtered): Promise<Share[]> {
      const filters = filtersOf(input);
      const range = await ownedRange(userId, projectId, input);
      return store.walletProviders(projectId, range, filters);
    },

    async countries(
      userId: string,
      projectId: string,
      input: RangeInput & Filtered & { limit: number },
    ): Promise<Share[]> {
      const range = await ownedRange(userId, projectId, input);
      return store.usersByCountry(projectId, range, input.limit, filtersOf(input));
    },

    async browsers(
      userId: string,
      projectId: string,
      input: RangeInput & Filtered & { limit: number },
    ): Promise<Share[]> {
      const range = await ownedRange(userId, projectId, input);
      return store.usersByBrowser(projectId, range, input.limit, filtersOf(input));
    },

    /** Users per operating system, device type or landing UTM source (docs/analytics.md). */
    async usersBy(
      attribute: ExtraUserAttribute,
      userId: string,
      projectId: string,
      input: RangeInput & Filtered & { limit: number },
    ): Promise<Share[]> {
      const filters = filtersOf(input);
      const range = await ownedRange(userId, projectId, input);
      return store.usersBy(attribute, projectId, range, input.limit, filters);
    },

    async topPages(
      userId: string,
      projectId: string,
      input: RangeInput & Filtered & { limit: number },
    ): Promise<PageRow[]> {
      const range = await ownedRange(userId, projectId, input);
      return store.topPages(projectId, range, input.limit, filtersOf(input));
    },

    async topReferrers(
      userId: string,
      projectId: string,
      input: RangeInput & Filtered & { limit: number },
    ): Promise<ReferrerRow[]> {
      const range = await ownedRange(userId, projectId, input);
      return store.topReferrers(projectId, range, input.limit, filtersOf(input));
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
      input: RangeInput & HistoryFilterInput & Filtered & { first: number; after?: string | null },
    ): Promise<TransactionPage> {
      const after = input.after ? decodeCursor(input.after) : null;
      const filter = { ...parseHistoryFilter(input), sessions: filtersOf(input) };
      const range = await ownedRange(userId, projectId, input);
      // One row more than asked tells whether there is a next page; unfiltered, the total is the
      // overview's count (one cheap read of the derived tables), filtered (the history's filter or the
      // Analytics filters), the count of what the filters keep.
      const [rows, total] = await Promise.all([
        store.transactionHistory(projectId, range, { limit: input.first + 1, after }, filter),
        isFiltered(filter)
          ? store.transactionCount(projectId, range, filter)
          : store
              .transactionOutcomes(projectId, bucketRange(range))
              .then((outcomes) => outcomes.get(0)?.total ?? 0),
      ]);
      const page = rows.slice(0, input.first);
      const last = page[page.length - 1];
      return {
        rows: page.map(toTransactionRow),
        total,
        nextCursor:
          rows.length > input.first && last ? encodeCursor({ timeMs: last.timeMs, id: last.id }) : null,
      };
    },

    /**
     * Every transaction of the range the filter keeps, in the history's order, a page at a time: for the
     * CSV download. The access check and the filter's are done before it returns; the pages are read
     * only as fast as they are pulled.
     */
    async transactionHistoryPages(
      userId: string,
      projectId: string,
      input: RangeInput & HistoryFilterInput & Filtered,
      pageSize = HISTORY_EXPORT_PAGE,
    ): Promise<{ range: TimeRange; pages: AsyncIterable<TransactionRow[]> }> {
      const filter = { ...parseHistoryFilter(input), sessions: filtersOf(input) };
      const range = await ownedRange(userId, projectId, input);
      async function* pages() {
        let after: HistoryCursor | null = null;
        do {
          const rows = await store.transactionHistory(projectId, range, { limit: pageSize, after }, filter);
          if (rows.length > 0) yield rows.map(toTransactionRow);
          const last = rows[rows.length - 1];
          after = rows.length === pageSize && last ? { timeMs: last.timeMs, id: last.id } : null;
        } while (after);
      }
      return { range, pages: pages() };
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
