// Untracked probe: asks bench cases through the ClickHouse adapter at CH_URL, RUNS times each.
import { DuckDBInstance } from '@duckdb/node-api';
import { createClickHouseEventStore } from './src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { bucketRange, DAY_MS } from './src/reading/time-range.ts';
import { cases as acq } from './bench/cases/acquisition.ts';
import { cases as an } from './bench/cases/analytics.ts';
import { cases as inc } from './bench/cases/incidents.ts';
const END_MS = Date.UTC(2026, 0, 1);
const instance = await DuckDBInstance.create(process.env.DUCK as string, { access_mode: 'READ_ONLY' });
const connection = await instance.connect();
const store = await createClickHouseEventStore(process.env.CH_URL as string);
const words = (process.env.ONLY ?? '').toLowerCase().split(',').filter(Boolean);
const all = [...acq, ...an, ...inc].filter((c) => words.length === 0 || words.some((w) => c.name.toLowerCase().includes(w)));
const range = { fromMs: END_MS - 30 * DAY_MS, toMs: END_MS };
const targets = JSON.parse(process.env.TARGETS as string) as { label: string; projectId: string; hash: string }[];
for (const t of targets) {
  const ctx = { projectId: t.projectId, range, daily: bucketRange(range, '1d'), allTime: { fromMs: END_MS - 90 * DAY_MS, toMs: END_MS }, sampleTxHash: t.hash, connection, store } as never;
  for (const c of all) {
    for (let i = 0; i < Number(process.env.RUNS ?? 3); i++) {
      console.error(`### ${t.label} ${c.name} run ${i}`);
      const s = performance.now();
      await c.duckdb(ctx);
      console.error(`### done ${(performance.now() - s).toFixed(1)} ms`);
    }
  }
}
await store.close();
instance.closeSync();
