import { createAnalyticsService } from '../../src/modules/analytics/service.ts';
import { createWalletService } from '../../src/modules/wallets/service.ts';
import type { BenchCase, DuckBenchContext } from '../bench-case.ts';
import { busiestWallet } from './wallets.ts';

/**
 * The questions whose day sets follow the project's time zone (docs/timezone.md), asked for a project in
 * Europe/Berlin over its last 30 local days (the data's January: CET, UTC+1, so each local midnight is
 * 23:00 UTC the day before): the overview (Daily Active Wallets, Average TX/User/Day), the Wallets
 * lifecycle, 12 weeks of cohorts, the Wallets list (the range the console asks: local midnights) and the
 * wallet page (its stage from the list's local days). No PostgreSQL translation: that column reads "error".
 */
const ZONE = 'Europe/Berlin';
const HOUR_MS = 3_600_000;
const berlinOwner = { getProjectFor: async () => ({ timeZone: ZONE }) as never };
const iso = (ms: number) => new Date(ms).toISOString();
/** The bench's 30 UTC days moved to Berlin's local midnights (January: one hour earlier). */
const localRange = (c: DuckBenchContext) => ({
  from: iso(c.range.fromMs - HOUR_MS),
  to: iso(c.range.toMs - HOUR_MS),
});
const berlinWallets = (c: DuckBenchContext) => createWalletService({ projects: berlinOwner, store: c.store });
const noPostgres = async () => {
  throw new Error('no PostgreSQL translation');
};

const localTimeRange = (c: DuckBenchContext) => ({
  fromMs: c.range.fromMs - HOUR_MS,
  toMs: c.range.toMs - HOUR_MS,
});

export const cases: BenchCase[] = [
  {
    // The plan before ADR 071, on the same local-midnight range: whole UTC days from the derived tables,
    // the two partial UTC days at each period's ends from the events (what a UTC project still runs).
    name: 'zoned active days, UTC-day plan (Berlin midnights, with previous)',
    duckdb: (c) => c.store.activeDays(c.projectId, localTimeRange(c)),
    postgres: noPostgres,
  },
  {
    name: 'zoned active days, local-day plan (Europe/Berlin, with previous)',
    duckdb: (c) => c.store.activeDays(c.projectId, localTimeRange(c), undefined, ZONE),
    postgres: noPostgres,
  },
  {
    name: 'zoned analyticsOverview (Europe/Berlin, 30 local days)',
    duckdb: (c) =>
      createAnalyticsService({ projects: berlinOwner, store: c.store }).overview(
        'bench',
        c.projectId,
        localRange(c),
      ),
    postgres: noPostgres,
  },
  {
    name: 'zoned wallet lifecycle (Europe/Berlin, with previous)',
    duckdb: (c) => berlinWallets(c).lifecycle('bench', c.projectId, localRange(c)),
    postgres: noPostgres,
  },
  {
    name: 'zoned retention cohorts (Europe/Berlin, 12 weeks)',
    duckdb: (c) =>
      berlinWallets(c).cohorts('bench', c.projectId, {
        from: iso(c.allTime.toMs - 84 * 86_400_000 - HOUR_MS),
        to: iso(c.allTime.toMs - HOUR_MS),
      }),
    postgres: noPostgres,
  },
  {
    name: 'zoned wallets list (last seen, Europe/Berlin, 30 local days)',
    duckdb: (c) => berlinWallets(c).list('bench', c.projectId, localRange(c)),
    postgres: noPostgres,
  },
  {
    name: 'zoned wallets list (gas paid, Active, Europe/Berlin, 30 local days)',
    duckdb: (c) =>
      berlinWallets(c).list('bench', c.projectId, { ...localRange(c), sort: 'gas_paid', stage: 'ACTIVE' }),
    postgres: noPostgres,
  },
  {
    name: 'zoned wallet page (busiest wallet, Europe/Berlin)',
    duckdb: async (c) => berlinWallets(c).wallet('bench', c.projectId, await busiestWallet(c)),
    postgres: noPostgres,
  },
];
