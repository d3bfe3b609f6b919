import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { createAnalyticsService } from '../../src/modules/analytics/service.ts';
import type { BenchCase } from '../bench-case.ts';

/**
 * The Analytics screen with three filters (docs/analytics.md, "Filters"; ADR 074): the generator's most
 * common country, browser and wallet provider, so that many sessions pass (the costlier case: more of
 * the range's events to read after the sessions are found). The event store's questions read `events`
 * then; no PostgreSQL translation (the PostgreSQL column is the unfiltered comparison only).
 */
const FILTERS: AnalyticsFilters = { countries: ['US'], browsers: ['Chrome'], walletProviders: ['MetaMask'] };
const stubOwner = { getProjectFor: async () => ({}) as never };
const noPostgres = async () => {
  throw new Error('not translated to PostgreSQL');
};

export const cases: BenchCase[] = [
  {
    name: '3 filters: analyticsOverview (3 queries, 3 connections)',
    duckdb: (c) =>
      createAnalyticsService({ projects: stubOwner, store: c.store }).overview('bench', c.projectId, {
        from: new Date(c.range.fromMs).toISOString(),
        to: new Date(c.range.toMs).toISOString(),
        filters: FILTERS,
      }),
    postgres: noPostgres,
  },
  {
    name: '3 filters: totalConnectedWallets 30×1d',
    duckdb: (c) => c.store.connectedWallets(c.projectId, c.daily, FILTERS),
    postgres: noPostgres,
  },
  {
    name: '3 filters: totalNewWallets 30×1d',
    duckdb: (c) => c.store.newWallets(c.projectId, c.daily, FILTERS),
    postgres: noPostgres,
  },
  {
    name: '3 filters: totalTransactions / failedTransactions 30×1d',
    duckdb: (c) => c.store.transactionOutcomes(c.projectId, c.daily, FILTERS),
    postgres: noPostgres,
  },
  {
    name: '3 filters: averageGasPrice 30×1d',
    duckdb: (c) => c.store.averageGasPrice(c.projectId, c.daily, null, FILTERS),
    postgres: noPostgres,
  },
  {
    name: '3 filters: contractFunctions top 10',
    duckdb: (c) => c.store.contractFunctions(c.projectId, c.range, 10, FILTERS),
    postgres: noPostgres,
  },
  {
    name: '3 filters: walletProviders',
    duckdb: (c) => c.store.walletProviders(c.projectId, c.range, FILTERS),
    postgres: noPostgres,
  },
  {
    name: '3 filters: countries top 250',
    duckdb: (c) => c.store.usersByCountry(c.projectId, c.range, 250, FILTERS),
    postgres: noPostgres,
  },
  {
    name: '3 filters: topPages top 100',
    duckdb: (c) => c.store.topPages(c.projectId, c.range, 100, FILTERS),
    postgres: noPostgres,
  },
  {
    name: '3 filters: topReferrers top 100',
    duckdb: (c) => c.store.topReferrers(c.projectId, c.range, 100, FILTERS),
    postgres: noPostgres,
  },
  // The history, its total and the Wallets cards under the same filters (ADR 080).
  {
    name: '3 filters: transactionHistory first 25',
    duckdb: (c) =>
      c.store.transactionHistory(c.projectId, c.range, { limit: 26, after: null }, { sessions: FILTERS }),
    postgres: noPostgres,
  },
  {
    name: '3 filters: history total',
    duckdb: (c) => c.store.transactionCount(c.projectId, c.range, { sessions: FILTERS }),
    postgres: noPostgres,
  },
  {
    name: '3 filters: walletLifecycle (one as-of day)',
    duckdb: (c) =>
      c.store.lifecycleCounts(c.projectId, new Date(c.range.toMs - 1).toISOString().slice(0, 10), {
        range: c.range,
        filters: FILTERS,
      }),
    postgres: noPostgres,
  },
  {
    name: '3 filters: retentionCohorts weekly',
    duckdb: (c) =>
      c.store.retentionCohorts(c.projectId, {
        range: c.range,
        periodMs: 7 * 86_400_000,
        periods: 12,
        returnBy: 'connected',
        split: null,
        untilMs: c.range.toMs,
        filters: FILTERS,
      }),
    postgres: noPostgres,
  },
  {
    name: '3 filters: failedTransactionCost',
    duckdb: (c) => c.store.failedTransactionCost(c.projectId, c.range, FILTERS),
    postgres: noPostgres,
  },
];
