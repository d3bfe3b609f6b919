/**
 * `npm run bench:analytics`: 10 million events (300 projects, 90 days, generated inside DuckDB) in a
 * temporary DuckDB file with the event store's columns, and the same rows in a throwaway PostgreSQL;
 * then p50/p95 of every dashboard query of every case file in bench/cases/, on the largest project
 * (~15 % of all events) and on a median-sized one, both engines side by side.
 *
 * With `--engines duckdb,postgres,clickhouse` (the default) the same rows are also loaded into ClickHouse's
 * engine (chdb, behind its HTTP interface as a process of its own: test/support/chdb-http-server.ts) and
 * every query is asked through the ClickHouse adapter, in the same table.
 *
 * Options: --events <count> (default 10000000), --engines <list>, --no-postgres, --runs <count> (default 20 per query),
 * --keep <file> (generate into this DuckDB file and keep it, clustered when the sorted layout ran),
 * --reuse <file> (time the queries on a file kept earlier: no generation, no re-clustering; its layout
 * is the one it was left in), --only <words> (only the queries whose name holds one of the
 * comma-separated words, e.g. `--only incident,overview`), --clickhouse-data <dir> (chdb's data directory,
 * kept: a run that finds the bench's ClickHouse database there with as many events as the DuckDB file skips
 * the 10 M-row load, about 160 s, and only migrates it to the current schema; meant with --reuse).
 *
 * ClickHouse's cells add the CPU ms chdb's process spent per run (its HTTP layer included); DuckDB's the CPU
 * ms of this process (DuckDB's threads and the adapter's JavaScript), except while ingesting.
 *
 * Without duckdb in --engines, the DuckDB file is only the data's source: opened read-only (with --reuse),
 * no derived tables built, no DuckDB timings.
 *
 * --while-ingesting <events/s>: DuckDB's and ClickHouse's questions are timed while the real server, in this
 * process over the same store, ingests the ingest bench's batches paced at that rate from a generator
 * process (analytics-data/while-ingesting.ts), after 10 s of it; the table's title and a line per engine say
 * what was acknowledged and refused meanwhile. The ingested events go into a project of their own, deleted
 * at the end; with --reuse they pass through the kept file, so give it a copy that no one else opens.
 */

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { DuckDBConnection } from '@duckdb/node-api';
import pg from 'pg';
import { z } from 'zod';
import {
  type ClickHouseEventStore,
  createClickHouseEventStore,
} from '../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { DuckDBInstance } from '../src/modules/event-store/duckdb/binding.ts';
import { ensureDerivedTables } from '../src/modules/event-store/duckdb/derived-tables.ts';
import { createDuckDbEventStore } from '../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { CREATE_EVENTS_TABLE } from '../src/modules/event-store/duckdb/schema.ts';
import type { EventStore } from '../src/modules/event-store/event-store.ts';
import { bucketRange, DAY_MS } from '../src/reading/time-range.ts';
import { type ChdbProcess, startChdbProcess } from '../test/support/chdb-process.ts';
import { startPostgres, type ThrowawayPostgres } from '../test/support/postgres.ts';
import { generateBenchEvents } from './analytics-data/generate-events.ts';
import { loadCases } from './analytics-data/load-cases.ts';
import { loadClickHouse } from './analytics-data/load-clickhouse.ts';
import { loadPostgres } from './analytics-data/load-postgres.ts';
import { startIngestion } from './analytics-data/while-ingesting.ts';
import type { BenchTarget } from './bench-case.ts';
import { processCpuMs } from './support/process-cpu.ts';

const BUDGET_P95_MS = 100;
const END_MS = Date.UTC(2026, 0, 1);
const DAYS = 90;

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '20' },
    /** Which engines answer: duckdb, postgres, clickhouse (DuckDB always generates or holds the data). */
    engines: { type: 'string', default: 'duckdb,postgres,clickhouse' },
    'no-postgres': { type: 'boolean', default: false },
    /** arrival: as ingestion appends; sorted: after re-clustering by (project_id, ts). */
    layouts: { type: 'string', default: 'arrival,sorted' },
    keep: { type: 'string' },
    reuse: { type: 'string' },
    /** Only the queries whose name holds one of these comma-separated words (case-insensitive). */
    only: { type: 'string' },
    /** chdb's data directory, kept between runs (the bench's database is loaded once). */
    'clickhouse-data': { type: 'string' },
    /** DuckDB's memory limit in MB, as the server's DUCKDB_MEMORY_LIMIT_MB; 0: DuckDB's own (80 % of RAM). */
    'duckdb-memory-limit-mb': { type: 'string', default: '0' },
    /** Adds custom events and identifies to the generated rows (analytics-data/generate-events.ts). */
    'custom-events': { type: 'boolean', default: false },
    /** Time DuckDB's and ClickHouse's questions while ingestion runs at this many events/s. */
    'while-ingesting': { type: 'string' },
  },
});
const TOTAL = Number(values.events);
const RUNS = Number(values.runs);
const LAYOUTS = values.layouts.split(',').filter((layout) => layout === 'arrival' || layout === 'sorted');
if (values.keep && values.reuse) throw new Error('--keep and --reuse exclude each other');
const ENGINES = new Set(values.engines.split(','));
const INGESTION_RATE = values['while-ingesting'] ? Number(values['while-ingesting']) : undefined;
/** Ingestion runs this long before the first timed question: its loads are then in their heavy-stream rhythm. */
const INGESTION_WARM_UP_MS = 10_000;
if (values['no-postgres']) ENGINES.delete('postgres');

const log = (message: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

type Timing = { p50: number; p95: number; runs: number; cpuMs?: number };

/**
 * Two warm-up runs, then `RUNS` timed ones (at least 5, and no more once 4 s have passed). With `pid`,
 * also the CPU that process spent per timed run: chdb's, which other work on a shared machine disturbs
 * far less than the wall-clock times.
 */
async function time(run: () => Promise<unknown>, pid?: number): Promise<Timing | string> {
  try {
    for (let i = 0; i < 2; i++) await run();
    const samples: number[] = [];
    const started = performance.now();
    const cpuBefore = pid === undefined ? 0 : processCpuMs(pid);
    while (samples.length < RUNS && (samples.length < 5 || performance.now() - started < 4_000)) {
      const t = performance.now();
      await run();
      samples.push(performance.now() - t);
    }
    const cpuMs = pid === undefined ? undefined : (processCpuMs(pid) - cpuBefore) / samples.length;
    samples.sort((a, b) => a - b);
    const at = (q: number) => samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)] ?? NaN;
    return { p50: at(0.5), p95: at(0.95), runs: samples.length, cpuMs };
  } catch (error) {
    return `error: ${(error as Error).message.split('\n')[0]}`;
  }
}

async function targetsOf(
  connection: DuckDBConnection,
): Promise<(BenchTarget & { label: string; events: number })[]> {
  const sizes = (
    await connection.runAndReadAll(
      'SELECT project_id, count(*)::DOUBLE AS n FROM events GROUP BY project_id ORDER BY n DESC, project_id',
    )
  ).getRowObjectsJS();
  const largest = sizes[0];
  const median = sizes[Math.floor(sizes.length / 2)];
  if (!largest || !median) throw new Error('no events generated');
  const range = { fromMs: END_MS - 30 * DAY_MS, toMs: END_MS };
  const targets = [];
  for (const [label, row] of [
    ['largest', largest],
    ['median', median],
  ] as const) {
    const projectId = String(row.project_id);
    const hash = (
      await connection.runAndReadAll(
        `SELECT tx_hash FROM events WHERE project_id = $project AND tx_hash IS NOT NULL ORDER BY ts DESC LIMIT 1`,
        { project: projectId },
      )
    ).getRowObjectsJS()[0]?.tx_hash;
    targets.push({
      label,
      events: Number(row.n),
      projectId,
      range,
      daily: bucketRange(range, '1d'),
      allTime: { fromMs: END_MS - DAYS * DAY_MS, toMs: END_MS },
      sampleTxHash: String(hash ?? '0x'),
    });
  }
  return targets;
}

const cell = (timing: Timing | string | undefined) =>
  timing === undefined
    ? '—'
    : typeof timing === 'string'
      ? timing.slice(0, 40)
      : `${timing.p50.toFixed(1)} / ${timing.p95.toFixed(1)}${timing.cpuMs === undefined ? '' : ` (CPU ${timing.cpuMs.toFixed(0)})`}`;

/**
 * What a periodic compaction of the event store would do: rewrite the table clustered by project and
 * time, so that each project's rows fill few row groups and the zone maps skip all the others.
 */
async function sortByProject(connection: DuckDBConnection): Promise<void> {
  await connection.run('CREATE TABLE events_sorted AS SELECT * FROM events ORDER BY project_id, ts');
  await connection.run('DROP TABLE events');
  await connection.run('ALTER TABLE events_sorted RENAME TO events');
  await connection.run('CHECKPOINT');
}

/**
 * The derived tables the store keeps on every insert (ADR 054), built from the generated events the way
 * the store builds them for a file that lacks them (already clustered by project); a kept file from
 * before them, or from an older version of them, gets them once.
 */
async function deriveTables(connection: DuckDBConnection): Promise<void> {
  const started = performance.now();
  const rebuilt = await ensureDerivedTables(connection);
  await connection.run('CHECKPOINT');
  log(
    `DuckDB: derived tables ready in ${((performance.now() - started) / 1000).toFixed(0)} s` +
      (rebuilt.length > 0 ? ` (built: ${rebuilt.join(', ')})` : ''),
  );
}

/** The generated events, in the store's columns and types, in arrival order. */
async function generate(connection: DuckDBConnection): Promise<void> {
  // Without the store's primary key, which only de-duplicates ingestion and would only slow the load
  // (no analytics query uses its index).
  await connection.run(CREATE_EVENTS_TABLE.replace(/,\s*PRIMARY KEY \(project_id, id\)/, ''));
  await generateBenchEvents(connection, {
    total: TOTAL,
    days: DAYS,
    endMs: END_MS,
    customEvents: values['custom-events'],
  });
  await connection.run('CHECKPOINT');
}

/** A kept file records the layout it was left in, so that --reuse labels its figures truthfully. */
async function rememberLayout(connection: DuckDBConnection, layout: string): Promise<void> {
  await connection.run('CREATE OR REPLACE TABLE bench_layout AS SELECT $layout::VARCHAR AS layout', {
    layout,
  });
}

async function keptLayout(connection: DuckDBConnection): Promise<string> {
  const reader = await connection.runAndReadAll('SELECT layout FROM bench_layout');
  return String(reader.getRowObjectsJS()[0]?.layout);
}

/** Events in the bench's ClickHouse database (a kept --clickhouse-data directory may hold them already). */
async function loadedEvents(store: ClickHouseEventStore): Promise<number> {
  const [row] = await store.clickhouse.rows(
    'SELECT count() AS n FROM events',
    {},
    z.object({ n: z.coerce.number() }),
  );
  return row?.n ?? 0;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bench-analytics-'));
  const kept = values.keep ?? values.reuse;
  const file = kept ? path.resolve(kept) : path.join(dir, 'events.duckdb');
  if (values.reuse && !existsSync(file)) throw new Error(`--reuse ${file}: no such file`);
  if (values.keep) rmSync(file, { force: true });
  let postgres: ThrowawayPostgres | undefined;
  let pgPool: pg.Pool | undefined;
  let chdb: ChdbProcess | undefined;
  let clickhouse: ClickHouseEventStore | undefined;
  const timesDuckDb = ENGINES.has('duckdb');
  const memoryLimitMb = Number(values['duckdb-memory-limit-mb']);
  const instance = await DuckDBInstance.create(file, {
    ...(values.reuse && !timesDuckDb ? { access_mode: 'READ_ONLY' } : {}),
    ...(memoryLimitMb ? { memory_limit: `${memoryLimitMb}MB` } : {}),
  });
  try {
    const cases = await loadCases(values.only);
    log(
      `${os.cpus().length} cores; ${cases.length} queries from bench/cases; DuckDB file ${file}, memory limit ` +
        `${memoryLimitMb ? `${memoryLimitMb} MB` : "DuckDB's default"}`,
    );
    const connection = await instance.connect();
    let started = performance.now();
    const layouts = values.reuse ? [await keptLayout(connection)] : LAYOUTS;
    if (!values.reuse) {
      await generate(connection);
      // Kept from the start, so that a run that fails later (an engine's load) leaves a file --reuse reads.
      if (values.keep) await rememberLayout(connection, 'arrival');
      log(`DuckDB: events generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    if (timesDuckDb) await deriveTables(connection);
    const count = Number(
      (await connection.runAndReadAll('SELECT count(*)::DOUBLE AS n FROM events')).getRowObjectsJS()[0]?.n,
    );
    log(`DuckDB: ${count.toLocaleString('en-US')} events`);
    const targets = await targetsOf(connection);
    for (const target of targets)
      log(`${target.label} project: ${target.events.toLocaleString('en-US')} events`);

    if (ENGINES.has('clickhouse')) {
      started = performance.now();
      const dataPath = values['clickhouse-data']
        ? path.resolve(values['clickhouse-data'])
        : path.join(dir, 'chdb');
      chdb = await startChdbProcess({ dataPath });
      clickhouse = await createClickHouseEventStore(`${chdb.url}/bench`);
      log(`ClickHouse (chdb): schema ready in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      const loaded = await loadedEvents(clickhouse);
      if (loaded === count) {
        log(`ClickHouse (chdb): ${loaded.toLocaleString('en-US')} events already in ${dataPath}`);
      } else {
        if (loaded > 0) throw new Error(`${dataPath} holds ${loaded} events, not ${count}: remove it first`);
        await loadClickHouse(connection, `${chdb.url}/bench`, dir);
        log(`ClickHouse (chdb): loaded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      }
    }
    if (ENGINES.has('postgres')) {
      started = performance.now();
      postgres = await startPostgres();
      pgPool = new pg.Pool({ connectionString: postgres.adminUrl, max: 3 });
      await pgPool.query('ALTER SYSTEM SET jit = off');
      await pgPool.query("ALTER SYSTEM SET work_mem = '64MB'");
      await pgPool.query('SELECT pg_reload_conf()');
      await loadPostgres(connection, pgPool, dir);
      log(`PostgreSQL: loaded and indexed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }

    const results = new Map<string, Map<string, Timing | string>>();
    const record = (name: string, column: string, timing: Timing | string) => {
      const row = results.get(name) ?? new Map<string, Timing | string>();
      results.set(name, row);
      row.set(column, timing);
    };
    const columns: string[] = [];
    const ingestionLines: string[] = [];
    /** `work` as it is, or while ingestion runs into `store` (--while-ingesting). */
    async function whileIngesting(
      store: EventStore,
      engine: string,
      work: () => Promise<void>,
    ): Promise<void> {
      if (!INGESTION_RATE) return work();
      const ingestion = await startIngestion(store, mkdtempSync(path.join(dir, 'ingest-')), INGESTION_RATE);
      await new Promise((resolve) => setTimeout(resolve, INGESTION_WARM_UP_MS));
      ingestion.startMeasuring();
      try {
        await work();
      } finally {
        const figures = await ingestion.stop();
        const refused = [...figures.refusals].map(
          ([status, count]) => `${status === 0 ? 'connection failed' : status} × ${count}`,
        );
        ingestionLines.push(
          `  ${engine}: ${Math.round(figures.acknowledgedPerSecond).toLocaleString('en-US')} events/s acknowledged over the ${figures.seconds.toFixed(0)} s of timing, ${refused.length === 0 ? 'none refused' : `refused: ${refused.join(', ')} of ${figures.requests} requests`}`,
        );
      }
    }
    for (const layout of timesDuckDb ? layouts : []) {
      if (layout === 'sorted' && !values.reuse) {
        started = performance.now();
        await sortByProject(connection);
        log(
          `DuckDB: re-clustered by (project_id, ts) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
        );
      }
      if (values.keep) await rememberLayout(connection, layout);
      const store = await createDuckDbEventStore({ file, instance, readers: 3 });
      // One untimed pass over every case first: right after re-clustering, the first queries read the
      // rewritten file from disk (one run of the first case took 300 ms), which a serving store does once.
      for (const target of targets)
        for (const benchCase of cases) await benchCase.duckdb({ ...target, connection, store });
      await whileIngesting(store, `DuckDB ${layout}`, async () => {
        for (const target of targets) {
          const column = `DuckDB ${layout}, ${target.label}`;
          columns.push(column);
          for (const benchCase of cases) {
            record(
              benchCase.name,
              column,
              await time(
                () => benchCase.duckdb({ ...target, connection, store }),
                INGESTION_RATE === undefined ? process.pid : undefined,
              ),
            );
          }
          log(`measured ${column}`);
        }
      });
      await store.close();
    }
    if (clickhouse) {
      const store = clickhouse;
      // The same untimed pass; a question not written in ClickHouse SQL yet shows as an error cell below.
      for (const target of targets)
        for (const benchCase of cases)
          await benchCase.duckdb({ ...target, connection, store }).catch(() => undefined);
      await whileIngesting(store, 'ClickHouse (chdb)', async () => {
        for (const target of targets) {
          const column = `ClickHouse (chdb), ${target.label}`;
          columns.push(column);
          for (const benchCase of cases)
            record(
              benchCase.name,
              column,
              await time(() => benchCase.duckdb({ ...target, connection, store }), chdb?.process.pid),
            );
          log(`measured ${column}`);
        }
      });
    }
    if (pgPool) {
      const p = pgPool;
      for (const target of targets) {
        const column = `PostgreSQL, ${target.label}`;
        columns.push(column);
        for (const benchCase of cases)
          record(benchCase.name, column, await time(() => benchCase.postgres({ ...target, pool: p })));
        log(`measured ${column}`);
      }
    }

    const header = ['query (p50 / p95 ms)', ...columns];
    const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
    // Per engine column: the worst p95 and how many questions are over the budget (the floor rows of
    // bench/cases/floor.ts are not questions).
    const worst = new Map<string, { p95: number; over: number; questions: number }>();
    for (const [name, row] of results) {
      lines.push(`| ${name} | ${columns.map((column) => cell(row.get(column))).join(' | ')} |`);
      if (name.startsWith('floor:')) continue;
      for (const column of columns.filter((c) => c.startsWith('DuckDB') || c.startsWith('ClickHouse'))) {
        const timing = row.get(column);
        const p95 = typeof timing === 'object' ? timing.p95 : Number.POSITIVE_INFINITY;
        const sofar = worst.get(column) ?? { p95: 0, over: 0, questions: 0 };
        worst.set(column, {
          p95: Math.max(sofar.p95, p95),
          over: sofar.over + (p95 > BUDGET_P95_MS ? 1 : 0),
          questions: sofar.questions + 1,
        });
      }
    }
    console.log(
      `\n${count.toLocaleString('en-US')} events, ${targets.map((t) => `${t.label} project ${t.events.toLocaleString('en-US')}`).join(', ')}; range: last 30 days${INGESTION_RATE ? `; DuckDB and ClickHouse while ingesting ${INGESTION_RATE.toLocaleString('en-US')} events/s offered into the same store` : ''}\n`,
    );
    console.log(lines.join('\n'));
    console.log(
      `\nBudget: p95 ≤ ${BUDGET_P95_MS} ms on every engine of the event store (DuckDB, ClickHouse).`,
    );
    for (const [column, { p95, over, questions }] of worst) {
      console.log(
        `  ${column}: worst p95 ${p95.toFixed(1)} ms, ${over === 0 ? 'met' : `NOT met (${over} of ${questions} questions over)`}`,
      );
    }
    if (INGESTION_RATE)
      console.log(
        `\nIngestion meanwhile (offered ${INGESTION_RATE.toLocaleString('en-US')} events/s):\n${ingestionLines.join('\n')}`,
      );
  } finally {
    await pgPool?.end();
    await postgres?.stop();
    await clickhouse?.close();
    await chdb?.stop();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
    if (values.keep) log(`kept ${file}: pass --reuse ${values.keep} to time queries on it again`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
