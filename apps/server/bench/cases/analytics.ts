import { createAnalyticsService } from '../../src/modules/analytics/service.ts';
import { previousPeriod } from '../../src/reading/time-range.ts';
import type { BenchCase, DuckBenchContext, PostgresBenchContext } from '../bench-case.ts';
import * as pgActiveDays from '../postgres/active-days.ts';
import * as pgGas from '../postgres/average-gas-price.ts';
import * as pgConnected from '../postgres/connected-wallets.ts';
import * as pgFunctions from '../postgres/contract-functions.ts';
import * as pgNew from '../postgres/new-wallets.ts';
import * as pgTxEvents from '../postgres/transaction-events.ts';
import * as pgHistory from '../postgres/transaction-history.ts';
import * as pgOutcomes from '../postgres/transaction-outcomes.ts';
import * as pgBrowsers from '../postgres/users-by-browser.ts';
import * as pgCountries from '../postgres/users-by-country.ts';
import * as pgWalletCounts from '../postgres/wallet-counts.ts';
import * as pgProviders from '../postgres/wallet-providers.ts';

/** The Analytics screen's queries, over the dashboard's default 30 days (daily buckets where it charts). */
const stubOwner = { getProjectFor: async () => ({}) as never };

const noPostgres = async () => {
  throw new Error('no PostgreSQL translation');
};

/** The Transaction History card's request with a search or filters: one page of 25 and the total. */
const history = (c: DuckBenchContext, filter: Record<string, string>) =>
  createAnalyticsService({ projects: stubOwner, store: c.store }).transactionHistory('bench', c.projectId, {
    from: new Date(c.range.fromMs).toISOString(),
    to: new Date(c.range.toMs).toISOString(),
    first: 25,
    ...filter,
  });

const pgArgs = (c: PostgresBenchContext) => [c.pool, c.projectId, c.range.fromMs, c.range.toMs] as const;

export const cases: BenchCase[] = [
  {
    name: 'analyticsOverview (3 queries, 3 connections)',
    duckdb: (c: DuckBenchContext) =>
      createAnalyticsService({ projects: stubOwner, store: c.store }).overview('bench', c.projectId, {
        from: new Date(c.range.fromMs).toISOString(),
        to: new Date(c.range.toMs).toISOString(),
      }),
    postgres: (c) =>
      Promise.all([
        pgOutcomes.transactionOutcomes(...pgArgs(c), c.range.toMs - c.range.fromMs),
        pgWalletCounts.walletCounts(...pgArgs(c)),
        pgActiveDays.activeDays(...pgArgs(c), previousPeriod(c.range).fromMs),
      ]),
  },
  {
    name: 'totalConnectedWallets 30×1d',
    duckdb: (c) => c.store.connectedWallets(c.projectId, c.daily),
    postgres: (c) => pgConnected.connectedWallets(...pgArgs(c), c.daily.bucketMs),
  },
  {
    name: 'totalNewWallets 30×1d',
    duckdb: (c) => c.store.newWallets(c.projectId, c.daily),
    postgres: (c) => pgNew.newWallets(...pgArgs(c), c.daily.bucketMs),
  },
  {
    name: 'totalTransactions / failedTransactions 30×1d',
    duckdb: (c) => c.store.transactionOutcomes(c.projectId, c.daily),
    postgres: (c) => pgOutcomes.transactionOutcomes(...pgArgs(c), c.daily.bucketMs),
  },
  {
    name: 'active wallet- and user-days, with the previous period',
    duckdb: (c) => c.store.activeDays(c.projectId, c.range),
    postgres: (c) => pgActiveDays.activeDays(...pgArgs(c), previousPeriod(c.range).fromMs),
  },
  {
    name: 'connected and new wallets (overview tiles)',
    duckdb: (c) => c.store.walletCounts(c.projectId, c.range),
    postgres: (c) => pgWalletCounts.walletCounts(...pgArgs(c)),
  },
  {
    name: 'averageGasPrice 30×1d',
    duckdb: (c) => c.store.averageGasPrice(c.projectId, c.daily, null),
    postgres: (c) => pgGas.averageGasPrice(...pgArgs(c), c.daily.bucketMs),
  },
  {
    name: 'contractFunctions top 10',
    duckdb: (c) => c.store.contractFunctions(c.projectId, c.range, 10),
    postgres: (c) => pgFunctions.contractFunctions(...pgArgs(c), 10),
  },
  {
    name: 'walletProviders',
    duckdb: (c) => c.store.walletProviders(c.projectId, c.range),
    postgres: (c) => pgProviders.walletProviders(...pgArgs(c)),
  },
  {
    name: 'countries top 10',
    duckdb: (c) => c.store.usersByCountry(c.projectId, c.range, 10),
    postgres: (c) => pgCountries.usersByCountry(...pgArgs(c), 10),
  },
  {
    name: 'browsers top 10',
    duckdb: (c) => c.store.usersByBrowser(c.projectId, c.range, 10),
    postgres: (c) => pgBrowsers.usersByBrowser(...pgArgs(c), 10),
  },
  {
    name: 'transactionHistory first page (25)',
    duckdb: (c) => c.store.transactionHistory(c.projectId, c.range, { limit: 26, after: null }),
    postgres: (c) => pgHistory.transactionHistory(...pgArgs(c), 26),
  },
  {
    // As the history card asks it: the page and the count of what the filters keep, together.
    name: 'transactionHistory filtered: Contract, confirmed (25 + total)',
    duckdb: (c) => history(c, { type: 'Contract', status: 'confirmed' }),
    postgres: noPostgres,
  },
  {
    name: 'transactionHistory searched: hash prefix, 8 hex (25 + total)',
    duckdb: (c) => history(c, { search: c.sampleTxHash.slice(0, 10) }),
    postgres: noPostgres,
  },
  {
    name: 'transaction by hash',
    duckdb: (c) => c.store.transactionEvents(c.projectId, c.sampleTxHash),
    postgres: (c) => pgTxEvents.transactionEvents(c.pool, c.projectId, c.sampleTxHash),
  },
];
