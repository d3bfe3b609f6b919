/**
 * `npm run bench:query-costs -- --reuse <bench DuckDB file> --clickhouse-data <chdb directory> --only <words>`:
 * where a ClickHouse question's time goes. Each chosen case of bench/cases/ is asked once through the
 * ClickHouse adapter (as `npm run bench:analytics` asks it, largest and median project, last 30 days) with
 * its queries captured at the adapter; then each captured query is asked alone `--calls` times (default 20),
 * and its `EXPLAIN PLAN` (analysis and planning, nothing read) as often, with the CPU chdb's process spent
 * per call (/proc, 10 ms ticks) and the wall clock's p50. The whole case is timed the same way first. The DuckDB file only names the projects and the
 * detail's incident (opened read-only); the chdb directory must hold the bench's database already.
 */

import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  type ClickHouseEventStore,
  createClickHouseEventStore,
} from '../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { Params } from '../src/modules/event-store/clickhouse/client.ts';
import { DuckDBInstance } from '../src/modules/event-store/duckdb/binding.ts';
import { bucketRange, DAY_MS } from '../src/reading/time-range.ts';
import { startChdbProcess } from '../test/support/chdb-process.ts';
import type { BenchCase, BenchTarget } from './bench-case.ts';
import { costOf } from './support/engine-cost.ts';

const END_MS = Date.UTC(2026, 0, 1);
const DAYS = 90;

const { values } = parseArgs({
  options: {
    reuse: { type: 'string' },
    'clickhouse-data': { type: 'string' },
    only: { type: 'string', default: 'incident' },
    calls: { type: 'string', default: '20' },
    /** Write each captured query to this directory (its parameters in a first comment line). */
    dump: { type: 'string' },
  },
});
if (!values.reuse || !values['clickhouse-data']) throw new Error('--reuse and --clickhouse-data are needed');
const CALLS = Number(values.calls);

async function loadCases(words: string[]): Promise<BenchCase[]> {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cases');
  const all: BenchCase[] = [];
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .sort()) {
    const module = (await import(pathToFileURL(path.join(dir, file)).href)) as { cases: BenchCase[] };
    all.push(...module.cases);
  }
  return all.filter((c) => words.some((word) => c.name.toLowerCase().includes(word)));
}

/** A query in one line, its whitespace folded, cut to `width`. */
const headOf = (sql: string, width = 70) => sql.replace(/\s+/g, ' ').trim().slice(0, width);

async function main(): Promise<void> {
  const instance = await DuckDBInstance.create(path.resolve(values.reuse as string), {
    access_mode: 'READ_ONLY',
  });
  const connection = await instance.connect();
  const chdb = await startChdbProcess({ dataPath: path.resolve(values['clickhouse-data'] as string) });
  const pid = chdb.process.pid as number;
  let store: ClickHouseEventStore | undefined;
  try {
    store = await createClickHouseEventStore(`${chdb.url}/bench`);
    const { clickhouse } = store;
    const sizes = (
      await connection.runAndReadAll(
        'SELECT project_id, count(*)::DOUBLE AS n FROM events GROUP BY project_id ORDER BY n DESC, project_id',
      )
    ).getRowObjectsJS();
    const range = { fromMs: END_MS - 30 * DAY_MS, toMs: END_MS };
    const targets: (BenchTarget & { label: string })[] = [
      ['largest', sizes[0]],
      ['median', sizes[Math.floor(sizes.length / 2)]],
    ].map(([label, row]) => ({
      label: String(label),
      projectId: String((row as { project_id: unknown }).project_id),
      range,
      daily: bucketRange(range, '1d'),
      allTime: { fromMs: END_MS - DAYS * DAY_MS, toMs: END_MS },
      sampleTxHash: '0x',
    }));
    const captured: { sql: string; params: Params; asker: string }[] = [];
    const rows = clickhouse.rows.bind(clickhouse);
    clickhouse.rows = (sql, params, schema) => {
      // The question's function and file, from the first frame in questions/.
      const frame = new Error().stack?.split('\n').find((line) => line.includes('/questions/')) ?? '';
      const asker = /at (?:async )?(\S+) .*\/questions\/([\w-]+)\.ts/.exec(frame);
      captured.push({ sql, params, asker: asker ? `${asker[2]} ${asker[1]}` : '?' });
      return rows(sql, params, schema);
    };
    const ask = (sql: string, params: Params) =>
      clickhouse.client.query({ query: sql, query_params: params, format: 'JSONEachRow' });
    const idle = await costOf(() => ask('SELECT 1', {}).then((r) => r.json()), pid, CALLS);
    console.log(`SELECT 1: CPU ${idle.cpuMs.toFixed(1)} ms, p50 ${idle.p50.toFixed(1)} ms`);
    for (const benchCase of await loadCases((values.only as string).toLowerCase().split(','))) {
      for (const target of targets) {
        const context = { ...target, connection, store };
        const whole = await costOf(() => benchCase.duckdb(context), pid, CALLS);
        captured.length = 0;
        await benchCase.duckdb(context);
        const queries = [...captured];
        console.log(
          `\n${benchCase.name}, ${target.label}: ${queries.length} queries, CPU ${whole.cpuMs.toFixed(1)} ms per call, p50 ${whole.p50.toFixed(1)} ms`,
        );
        for (const [index, { sql, params, asker }] of queries.entries()) {
          if (values.dump) {
            const name = `${benchCase.name.split(' ')[1]}-${target.label}-${index + 1}.sql`;
            writeFileSync(path.join(values.dump, name), `-- params: ${JSON.stringify(params)}\n${sql}`);
          }
          const alone = await costOf(() => ask(sql, params).then((r) => r.json()), pid, CALLS);
          const plan = await costOf(
            () => ask(`EXPLAIN PLAN ${sql}`, params).then((r) => r.json()),
            pid,
            CALLS,
          );
          console.log(
            `  ${index + 1}. CPU ${alone.cpuMs.toFixed(1)} (EXPLAIN PLAN ${plan.cpuMs.toFixed(1)}) ms, p50 ${alone.p50.toFixed(1)} ms: ${asker}: ${headOf(sql, 50)}`,
          );
        }
      }
    }
  } finally {
    await store?.close();
    await chdb.stop();
    connection.closeSync();
    instance.closeSync();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
