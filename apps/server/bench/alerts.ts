/**
 * `npm run bench:alerts`: one evaluation cycle of 1,000 alert rules over 100 projects (docs/alerts.md#evaluation;
 * budget: ≤ 5 s on each engine), on the analytics bench's generated events (300 projects, 90 days; default
 * 10 M events, `--events` for fewer), the clock a minute after the last generated event so that every
 * window holds data. Each project gets 10 rules of every kind: fail rates over 5, 60 and 1,440 minutes, new
 * incidents (Low and High), a regression (a third of its incidents resolved a day before the end), spikes
 * over 10 and 60 minutes, silences of 1 and 24 hours. The accounts store is a SQLite file; notices go to a
 * counting sink. Prints each cycle's time per engine: the first (nothing fired yet: every firing stored and
 * handed over) and the following ones (states known, few firings).
 *
 * Options: --events <count> (default 10000000), --engines duckdb,clickhouse (default both), --cycles <n>
 * (default 5), --reuse <file> (a DuckDB file kept by `npm run bench:analytics -- --keep <file>` or by this
 * bench's --keep: no generation), --keep <file>.
 */

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrations.ts';
import { createAlertRuleService } from '../src/modules/alert-rules/service.ts';
import { createAlertRuleStore } from '../src/modules/alert-rules/store.ts';
import { createClickHouseEventStore } from '../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { DuckDBInstance } from '../src/modules/event-store/duckdb/binding.ts';
import { ensureDerivedTables } from '../src/modules/event-store/duckdb/derived-tables.ts';
import { createDuckDbEventStore } from '../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { CREATE_EVENTS_TABLE } from '../src/modules/event-store/duckdb/schema.ts';
import type { EventStore } from '../src/modules/event-store/event-store.ts';
import { createIncidentService } from '../src/modules/incidents/service.ts';
import { createIncidentStateStore } from '../src/modules/incidents/store.ts';
import { DAY_MS } from '../src/reading/time-range.ts';
import { startChdbProcess } from '../test/support/chdb-process.ts';
import { generateBenchEvents } from './analytics-data/generate-events.ts';
import { loadClickHouse } from './analytics-data/load-clickhouse.ts';

const BUDGET_MS = 5_000;
const END_MS = Date.UTC(2026, 0, 1);
const DAYS = 90;
const PROJECTS = 100;

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    engines: { type: 'string', default: 'duckdb,clickhouse' },
    cycles: { type: 'string', default: '5' },
    reuse: { type: 'string' },
    keep: { type: 'string' },
  },
});
const ENGINES = values.engines.split(',');
const CYCLES = Math.max(2, Number(values.cycles));

const log = (message: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

/** Ten rules of every kind per project: 1,000 over 100 projects. */
const RULES_PER_PROJECT = [
  { kind: 'tx_fail_rate', params: { windowMinutes: 5, thresholdPercent: 5, minTransactions: 1 } },
  { kind: 'tx_fail_rate', params: { windowMinutes: 60, thresholdPercent: 10, minTransactions: 5 } },
  { kind: 'tx_fail_rate', params: { windowMinutes: 1440, thresholdPercent: 20, minTransactions: 10 } },
  { kind: 'new_incident', params: { minSeverity: 'low' } },
  { kind: 'new_incident', params: { minSeverity: 'high' } },
  { kind: 'incident_regression', params: {} },
  { kind: 'incident_spike', params: { threshold: 3, windowMinutes: 10 } },
  { kind: 'incident_spike', params: { threshold: 20, windowMinutes: 60 } },
  { kind: 'no_events', params: { hours: 1 } },
  { kind: 'no_events', params: { hours: 24 } },
] as const;

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bench-alerts-'));
  const file = path.resolve(values.reuse ?? values.keep ?? path.join(dir, 'events.duckdb'));
  if (values.reuse && !existsSync(file)) throw new Error(`--reuse ${file}: no such file`);
  if (values.keep) rmSync(file, { force: true });
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    if (!values.reuse) {
      const started = performance.now();
      await connection.run(CREATE_EVENTS_TABLE.replace(/,\s*PRIMARY KEY \(project_id, id\)/, ''));
      await generateBenchEvents(connection, { total: Number(values.events), days: DAYS, endMs: END_MS });
      // As the store keeps it (ADR 004): clustered by project and time.
      await connection.run('CREATE TABLE events_sorted AS SELECT * FROM events ORDER BY project_id, ts');
      await connection.run('DROP TABLE events');
      await connection.run('ALTER TABLE events_sorted RENAME TO events');
      await connection.run('CHECKPOINT');
      log(`DuckDB: events generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    await ensureDerivedTables(connection);
    await connection.run('CHECKPOINT');
    const count = Number(
      (await connection.runAndReadAll('SELECT count(*)::DOUBLE AS n FROM events')).getRowObjectsJS()[0]?.n,
    );
    // The 100 largest projects, and a third of each one's incidents to resolve a day before the end.
    const projects = (
      await connection.runAndReadAll(
        `SELECT project_id, count(*)::DOUBLE AS n FROM events GROUP BY project_id ORDER BY n DESC, project_id LIMIT ${PROJECTS}`,
      )
    )
      .getRowObjectsJS()
      .map((row) => String(row.project_id));
    const incidents = (
      await connection.runAndReadAll(
        `SELECT DISTINCT project_id, incident_id FROM events
          WHERE type = 'error' AND incident_id IS NOT NULL AND hash(incident_id) % 3 = 0`,
      )
    )
      .getRowObjectsJS()
      .map((row) => ({ projectId: String(row.project_id), incidentId: String(row.incident_id) }))
      .filter((row) => projects.includes(row.projectId));
    const lastMs = Number(
      (
        await connection.runAndReadAll('SELECT epoch_ms(max(ts))::DOUBLE AS t FROM events')
      ).getRowObjectsJS()[0]?.t,
    );
    log(`${os.cpus().length} cores; ${count.toLocaleString('en-US')} events; ${projects.length} projects`);

    for (const engine of ENGINES) {
      let store: EventStore;
      let stop = async () => {};
      if (engine === 'duckdb') {
        store = await createDuckDbEventStore({ file, instance, readers: 3 });
        stop = () => store.close();
      } else if (engine === 'clickhouse') {
        const started = performance.now();
        const chdb = await startChdbProcess({ dataPath: path.join(dir, 'chdb') });
        const clickhouse = await createClickHouseEventStore(`${chdb.url}/bench`);
        await loadClickHouse(connection, `${chdb.url}/bench`, dir);
        log(`ClickHouse (chdb): loaded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
        store = clickhouse;
        stop = async () => {
          await clickhouse.close();
          await chdb.stop();
        };
      } else throw new Error(`--engines: unknown engine ${engine}`);
      try {
        await cycles(engine, store, projects, incidents, dir, lastMs + 60_000);
      } finally {
        await stop();
      }
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
    if (!values.keep && !values.reuse) rmSync(dir, { recursive: true, force: true });
    else rmSync(path.join(dir, 'chdb'), { recursive: true, force: true });
  }
}

async function cycles(
  engine: string,
  eventStore: EventStore,
  projects: string[],
  resolved: { projectId: string; incidentId: string }[],
  dir: string,
  startMs: number,
): Promise<void> {
  const accounts = path.join(dir, `accounts-${engine}`);
  const { db } = await createDatabase({ databaseUrl: undefined, dataDir: accounts });
  try {
    await migrateToLatest(db);
    const createdAt = new Date(startMs - 30 * DAY_MS).toISOString();
    await db
      .insertInto('users')
      .values({
        id: 'bench-owner',
        email: 'bench@example.com',
        password_hash: '-',
        verified_at: createdAt,
        password_changed_at: createdAt,
        session_version: 0,
        created_at: createdAt,
      })
      .execute();
    for (const [index, projectId] of projects.entries()) {
      await db
        .insertInto('projects')
        .values({
          id: projectId,
          owner_id: 'bench-owner',
          name: `Bench ${index}`,
          api_key: null,
          created_at: createdAt,
          retention_days: null,
        })
        .execute();
    }
    const store = createAlertRuleStore(db);
    for (const projectId of projects) {
      for (const [index, rule] of RULES_PER_PROJECT.entries()) {
        await store.insert({
          id: crypto.randomUUID(),
          project_id: projectId,
          name: `${rule.kind} ${index}`,
          kind: rule.kind,
          params: JSON.stringify(rule.params),
          channel_ids: JSON.stringify([crypto.randomUUID()]),
          cooldown_minutes: 60,
          paused: 0,
          created_at: createdAt,
          updated_at: createdAt,
        });
      }
    }
    const states = createIncidentStateStore(db);
    for (const incident of resolved) {
      await states.setState({
        ...incident,
        status: 'resolved',
        changedAt: new Date(startMs - DAY_MS),
        changedBy: 'bench-owner',
      });
    }
    let nowMs = startMs;
    const clock = () => new Date(nowMs);
    const incidentService = createIncidentService({
      projects: { getProjectFor: async () => ({}) as never },
      store: eventStore,
      states,
      // The alert questions read no assignee.
      assignments: {
        assigneesOf: async () => new Map(),
        memberEmail: async () => null,
        assign: async () => false,
      },
      clock,
      audit: { record: async () => {} },
    });
    let notices = 0;
    const service = createAlertRuleService({
      store,
      projects: { getProjectFor: async () => ({}) as never },
      eventStore,
      incidents: {
        resolvedIncidents: (ids) => incidentService.resolvedIncidents(ids),
        severityOf: (projectId, incidentId, at) =>
          incidentService.lifetimeSeverity(projectId, incidentId, at),
      },
      channels: { channelIdsOf: async (_projectId, ids) => [...ids] },
      notify: async () => {
        notices += 1;
      },
      clock,
      publicUrl: 'http://polyflow.test',
      evaluationIntervalMs: 60_000,
    });
    const times: number[] = [];
    for (let cycle = 0; cycle < CYCLES; cycle += 1) {
      const result = await service.evaluate();
      times.push(result.durationMs);
      log(
        `${engine}: cycle ${cycle + 1}: ${(result.durationMs / 1000).toFixed(2)} s, ${result.rules} rules, ` +
          `${result.triggered} triggered, ${result.resolved} resolved`,
      );
      nowMs += 60_000;
    }
    const byKind = await db
      .selectFrom('alert_firings as f')
      .innerJoin('alert_rules as r', 'r.id', 'f.rule_id')
      .select(['r.kind', 'f.type', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['r.kind', 'f.type'])
      .execute();
    log(`${engine}: firings ${byKind.map((row) => `${row.kind} ${row.type} ${row.n}`).join(', ')}`);
    const later = times.slice(1).sort((a, b) => a - b);
    const worst = Math.max(...times);
    console.log(
      `\n${engine}: first cycle ${(times[0] ?? 0).toFixed(0)} ms; later cycles median ${(later[Math.floor(later.length / 2)] ?? 0).toFixed(0)} ms, ` +
        `max ${(later.at(-1) ?? 0).toFixed(0)} ms; ${notices} notices handed over; budget ${BUDGET_MS} ms: ` +
        `${worst <= BUDGET_MS ? 'met' : 'MISSED'}\n`,
    );
  } finally {
    await db.destroy();
  }
}

await main();
