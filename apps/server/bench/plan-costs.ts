/**
 * `npm run bench:plan-costs -- [--calls 20] [--only <words>] [--jit]`: what each ClickHouse question's
 * statements cost before they read a row. A chdb of its own (temporary, the migrated schema) holds the
 * acquisition and incident suites' fixtures (a few hundred events, as the tests do); each question is
 * asked once through the adapter with its statements captured, then each statement is asked alone
 * `--calls` times: chdb's CPU per call (/proc, 10 ms ticks, so many calls) and the wall clock's p50. Almost
 * all of it is parsing, analysis and planning: the figure a question costs whatever its rows. Without
 * `--jit` the engine runs as the tests' does (ADR 131).
 */

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createClickHouseEventStore } from '../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { Params } from '../src/modules/event-store/clickhouse/client.ts';
import type { EventStore } from '../src/modules/event-store/event-store.ts';
import type { TimeRange } from '../src/reading/time-range.ts';
import { acquisitionEvents } from '../test/acquisition/fixture.ts';
import { incidentEvents } from '../test/incidents/fixture.ts';
import { startChdbProcess } from '../test/support/chdb-process.ts';
import { storeRows } from '../test/support/event-stores.ts';
import { costOf } from './support/engine-cost.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '20' },
    only: { type: 'string', default: '' },
    jit: { type: 'boolean', default: false },
    /** Write each captured statement to this directory (its parameters in a first comment line). */
    dump: { type: 'string' },
  },
});
const CALLS = Number(values.calls);

const ACQUISITION = 'prj_acquisition';
const INCIDENTS = 'prj_incidents';
const range = (from: string, to: string): TimeRange => ({ fromMs: Date.parse(from), toMs: Date.parse(to) });
/** Whole UTC days, and a range cut mid-day at both ends (two partial days read from `events`). */
const WEEK = range('2024-03-01T00:00:00Z', '2024-03-08T00:00:00Z');
const CUT = range('2024-03-01T13:30:00Z', '2024-03-06T09:15:00Z');
const FILTERS = { countries: ['US', 'DE'], sources: ['twitter'], walletProviders: ['MetaMask'] };

/** The questions measured: a name, and the call through the port. */
const QUESTIONS: [string, (store: EventStore) => Promise<unknown>][] = [
  ['funnelCounts, week', (s) => s.funnelCounts(ACQUISITION, WEEK, {})],
  ['funnelCounts, cut', (s) => s.funnelCounts(ACQUISITION, CUT, {})],
  ['funnelCounts, cut, 3 filters', (s) => s.funnelCounts(ACQUISITION, CUT, FILTERS)],
  ['attributionCounts campaign, week', (s) => s.attributionCounts(ACQUISITION, WEEK, 'campaign', {})],
  ['attributionCounts campaign, cut', (s) => s.attributionCounts(ACQUISITION, CUT, 'campaign', {})],
  [
    'attributionCounts source, cut, 3 filters',
    (s) => s.attributionCounts(ACQUISITION, CUT, 'source', FILTERS),
  ],
  ['filterOptions, cut', (s) => s.filterOptions(ACQUISITION, CUT)],
  ['usersByCountry, week', (s) => s.usersByCountry(ACQUISITION, WEEK, 10)],
  ['usersByBrowser, week', (s) => s.usersByBrowser(ACQUISITION, WEEK, 10)],
  ['incidentSummaries, week', (s) => s.incidentSummaries(INCIDENTS, WEEK)],
  ['incidentSummaries, week, search', (s) => s.incidentSummaries(INCIDENTS, WEEK, { search: 'revert' })],
  ['incidentSummariesAndLives, week', (s) => s.incidentSummariesAndLives(INCIDENTS, WEEK, WEEK.toMs)],
  ['incidentReleases', (s) => s.incidentReleases(INCIDENTS)],
  ['occurrenceById', (s) => s.occurrenceById(INCIDENTS, 'e-none')],
  [
    'activeUsersDuring',
    (s) =>
      s.activeUsersDuring(INCIDENTS, [{ incidentId: 'i', firstSeenMs: WEEK.fromMs, lastSeenMs: WEEK.toMs }]),
  ],
  ['newReleaseOccurrences', (s) => s.newReleaseOccurrences(INCIDENTS, [{ incidentId: 'i', sinceMs: 0 }])],
];

const headOf = (sql: string, width = 60) => sql.replace(/\s+/g, ' ').trim().slice(0, width);

async function main(): Promise<void> {
  const chdb = await startChdbProcess({ temporary: true, jit: values.jit });
  const pid = chdb.process.pid as number;
  const store = await createClickHouseEventStore(`${chdb.url}/plan_costs`);
  try {
    await storeRows(store, [...acquisitionEvents(ACQUISITION), ...incidentEvents(INCIDENTS)]);
    const { clickhouse } = store;
    const captured: { sql: string; params: Params }[] = [];
    const rows = clickhouse.rows.bind(clickhouse);
    clickhouse.rows = (sql, params, schema) => {
      captured.push({ sql, params });
      return rows(sql, params, schema);
    };
    const ask = (sql: string, params: Params) =>
      clickhouse.client
        .query({ query: sql, query_params: params, format: 'JSONEachRow' })
        .then((r) => r.json());
    const floor = await costOf(() => ask('SELECT 1', {}), pid, CALLS);
    console.log(`SELECT 1: CPU ${floor.cpuMs.toFixed(1)} ms, p50 ${floor.p50.toFixed(1)} ms`);
    const words = (values.only as string).toLowerCase().split(',').filter(Boolean);
    let total = 0;
    for (const [name, question] of QUESTIONS) {
      if (words.length > 0 && !words.some((word) => name.toLowerCase().includes(word))) continue;
      captured.length = 0;
      await question(store);
      const statements = [...captured];
      for (const [index, { sql, params }] of statements.entries()) {
        if (values.dump)
          writeFileSync(
            path.join(values.dump, `${name.replace(/\W+/g, '-')}-${index + 1}.sql`),
            `-- params: ${JSON.stringify(params)}\n${sql}`,
          );
        const cost = await costOf(() => ask(sql, params), pid, CALLS);
        total += cost.cpuMs;
        console.log(
          `${name} ${index + 1}/${statements.length}: CPU ${cost.cpuMs.toFixed(1)} ms, p50 ${cost.p50.toFixed(1)} ms, ${sql.length} chars: ${headOf(sql)}`,
        );
      }
    }
    console.log(`sum of the statements' CPU: ${total.toFixed(1)} ms`);
  } finally {
    await store.close();
    await chdb.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
