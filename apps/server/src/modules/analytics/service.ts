import type {
  AnalyticsOverview,
  AverageBucket,
  ContractFunctionCalls,
  Share,
  TimeBucket,
  TransactionDetail,
  TransactionPage,
} from '@polyflow/contracts/analytics';
import type { Project } from '@polyflow/contracts/projects';
import { type Clock, systemClock } from '../../lib/clock.ts';
import type { ConnectionPool } from '../event-store/duckdb/connection-pool.ts';
import { decodeCursor, encodeCursor } from '../../reading/cursor.ts';
import { activeDays } from '../event-store/duckdb/questions/active-days.ts';
import { averageGasPrice } from '../event-store/duckdb/questions/average-gas-price.ts';
import { connectedWallets } from '../event-store/duckdb/questions/connected-wallets.ts';
import { contractFunctions } from '../event-store/duckdb/questions/contract-functions.ts';
import { eventSpan } from '../event-store/duckdb/questions/event-span.ts';
import { newWallets } from '../event-store/duckdb/questions/new-wallets.ts';
import { transactionEvents } from '../event-store/duckdb/questions/transaction-events.ts';
import { transactionHistory } from '../event-store/duckdb/questions/transaction-history.ts';
import { transactionOutcomes } from '../event-store/duckdb/questions/transaction-outcomes.ts';
import { usersByBrowser, usersByCountry } from '../event-store/duckdb/questions/users-by-attribute.ts';
import { walletCounts } from '../event-store/duckdb/questions/wallet-counts.ts';
import { walletProviders } from '../event-store/duckdb/questions/wallet-providers.ts';
import { functionNameOf } from './known-selectors.ts';
import {
  bucketRange,
  fillBuckets,
  needsSpan,
  previousPeriod,
  type RangeInput,
  resolveRange,
  type TimeRange,
  utcDaysIn,
} from '../../reading/time-range.ts';
import { toTransactionDetail, toTransactionRow } from './transaction-record.ts';

export type SeriesInput = RangeInput & { granularity?: string | null };
export type CountSeries = 'connectedWallets' | 'newWallets' | 'transactions' | 'failedTransactions';

export type AnalyticsServiceDeps = {
  projects: { getOwnedProject(userId: string, projectId: string): Promise<Project> };
  pool: ConnectionPool;
  clock?: Clock;
};

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;

const ratio = (numerator: number, denominator: number): number | null =>
  denominator > 0 ? numerator / denominator : null;

/** The Analytics screen's figures. Every call first checks that the caller owns the project. */
export function createAnalyticsService({ projects, pool, clock = systemClock }: AnalyticsServiceDeps) {
  /** Owner check, then the range with open ends closed ("all time" needs the project's event span). */
  async function ownedRange(userId: string, projectId: string, input: RangeInput): Promise<TimeRange> {
    await projects.getOwnedProject(userId, projectId);
    const span = needsSpan(input) ? await pool.use((c) => eventSpan(c, projectId)) : null;
    return resolveRange(input, span, clock().getTime());
  }

  async function countSeries(kind: CountSeries, userId: string, projectId: string, input: SeriesInput) {
    const range = bucketRange(await ownedRange(userId, projectId, input), input.granularity);
    const values = await pool.use(async (c) => {
      if (kind === 'connectedWallets') return connectedWallets(c, projectId, range);
      if (kind === 'newWallets') return newWallets(c, projectId, range);
      const outcomes = await transactionOutcomes(c, projectId, range);
      const pick = kind === 'transactions' ? 'total' : 'failed';
      return new Map([...outcomes].map(([bucket, counts]) => [bucket, counts[pick]]));
    });
    return fillBuckets(range, values, 0) satisfies TimeBucket[];
  }

  return {
    countSeries,

    async averageGasPrice(
      userId: string,
      projectId: string,
      input: SeriesInput & { chainId?: number | null },
    ): Promise<AverageBucket[]> {
      const range = bucketRange(await ownedRange(userId, projectId, input), input.granularity);
      const values = await pool.use((c) => averageGasPrice(c, projectId, range, input.chainId ?? null));
      return fillBuckets<number | null>(range, values, null);
    },

    async overview(userId: string, projectId: string, input: RangeInput): Promise<AnalyticsOverview> {
      const range = await ownedRange(userId, projectId, input);
      const previous = previousPeriod(range);
      const [outcomes, wallets, days] = await Promise.all([
        pool.use((c) => transactionOutcomes(c, projectId, bucketRange(range))),
        pool.use((c) => walletCounts(c, projectId, range)),
        pool.use((c) => activeDays(c, projectId, range)),
      ]);
      const counts = outcomes.get(0) ?? { total: 0, submitted: 0, failed: 0, attempted: 0 };
      const dailyActiveWallets = days.walletDays / utcDaysIn(range);
      const previousDailyActiveWallets = days.previousWalletDays / utcDaysIn(previous);
      return {
        from: new Date(range.fromMs).toISOString(),
        to: new Date(range.toMs).toISOString(),
        totalTransactions: counts.total,
        connectedWallets: wallets.connected,
        newWallets: wallets.fresh,
        submittedTransactions: counts.submitted,
        failedTransactions: counts.failed,
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
      const rows = await pool.use((c) => contractFunctions(c, projectId, range, input.limit));
      return rows.map((row) => ({ ...row, functionName: functionNameOf(row.selector) }));
    },

    async walletProviders(userId: string, projectId: string, input: RangeInput): Promise<Share[]> {
      const range = await ownedRange(userId, projectId, input);
      return pool.use((c) => walletProviders(c, projectId, range));
    },

    async countries(
      userId: string,
      projectId: string,
      input: RangeInput & { limit: number },
    ): Promise<Share[]> {
      const range = await ownedRange(userId, projectId, input);
      return pool.use((c) => usersByCountry(c, projectId, range, input.limit));
    },

    async browsers(
      userId: string,
      projectId: string,
      input: RangeInput & { limit: number },
    ): Promise<Share[]> {
      const range = await ownedRange(userId, projectId, input);
      return pool.use((c) => usersByBrowser(c, projectId, range, input.limit));
    },

    async transactionHistory(
      userId: string,
      projectId: string,
      input: RangeInput & { first: number; after?: string | null },
    ): Promise<TransactionPage> {
      const after = input.after ? decodeCursor(input.after) : null;
      const range = await ownedRange(userId, projectId, input);
      // One row more than asked tells whether there is a next page.
      const rows = await pool.use((c) =>
        transactionHistory(c, projectId, range, { limit: input.first + 1, after }),
      );
      const page = rows.slice(0, input.first);
      const last = page[page.length - 1];
      return {
        rows: page.map(toTransactionRow),
        nextCursor:
          rows.length > input.first && last ? encodeCursor({ timeMs: last.timeMs, id: last.id }) : null,
      };
    },

    async transaction(
      userId: string,
      projectId: string,
      hashOrId: string,
    ): Promise<TransactionDetail | null> {
      await projects.getOwnedProject(userId, projectId);
      const events = await pool.use((c) => transactionEvents(c, projectId, hashOrId));
      return toTransactionDetail(events);
    },
  };
}
