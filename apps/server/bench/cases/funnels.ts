import type { FunnelStep } from '@polyflow/contracts/funnels';
import type { BenchCase, DuckBenchContext } from '../bench-case.ts';

/**
 * A custom funnel (docs/funnels.md) of four steps over the dashboard's default 30 days, straight on the
 * port: any page → wallet connection → the custom event swap_quote_shown → a confirmed transaction, within
 * a day; once more split by the landing source. Meaningful with `--custom-events` (step 3 needs them).
 * No PostgreSQL translation: that column reads "error".
 */
const STEPS: FunnelStep[] = [
  { kind: 'page', path: '/**' },
  { kind: 'wallet_connected' },
  { kind: 'event', name: 'swap_quote_shown' },
  { kind: 'transaction', stage: 'confirmed' },
];
const funnel = { steps: STEPS, windowMs: 24 * 3_600_000 };
const noPostgres = async () => {
  throw new Error('no PostgreSQL translation');
};

export const cases: BenchCase[] = [
  {
    name: 'custom funnel (4 steps, 1 day)',
    duckdb: (c: DuckBenchContext) => c.store.customFunnel(c.projectId, c.range, funnel, null),
    postgres: noPostgres,
  },
  {
    name: 'custom funnel (4 steps, split by source)',
    duckdb: (c: DuckBenchContext) => c.store.customFunnel(c.projectId, c.range, funnel, 'source'),
    postgres: noPostgres,
  },
];
