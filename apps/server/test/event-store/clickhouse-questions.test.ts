import type { AcquisitionFilters, AttributionDimension } from '@polyflow/contracts/acquisition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickHouseEventStore } from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { DuckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { EventStore } from '../../src/modules/event-store/event-store.ts';
import type { SummariesAndLives } from '../../src/modules/event-store/incident-questions.ts';
import { bucketRange, type TimeRange } from '../../src/reading/time-range.ts';
import { acquisitionEvents } from '../acquisition/fixture.ts';
import { incidentEvents } from '../incidents/fixture.ts';
import { askBoth } from './both-engines.ts';
import { edgeEvents } from './edge-events.ts';
import { type EnginesHolding, enginesHolding } from './engines-holding.ts';

/**
 * The ClickHouse adapter answers the acquisition and incident questions (and the analytics ones they
 * share) exactly as the DuckDB adapter does, over the same events: the suites' fixtures and a set of edge
 * cases (ties, blank and padded values, sessions cut by the range, a session id shared by two users,
 * stages without ids, an incident with occurrences of another source). ClickHouse is chdb behind its
 * HTTP interface (test/support/chdb-http-server.ts), reached by the adapter's real client; every event is
 * loaded three times: twice in one segment (one insert, so one part holding each key twice: loads do not
 * collapse duplicates at insert time) and again in a second segment, as a retried load does, and each
 * event must still count once.
 */

const PROJECTS = {
  acquisition: 'prj_acquisition',
  incidents: 'prj_incidents',
  edges: 'prj_edges',
  none: 'prj_none',
};

/** Each case asks both engines dozens of questions, on a machine shared by many test runs. */
const SLOW = 180_000;

let engines: EnginesHolding;
let duck: DuckDbEventStore;
let ch: ClickHouseEventStore;

beforeAll(async () => {
  engines = await enginesHolding('pf_questions', [
    ...acquisitionEvents(PROJECTS.acquisition),
    ...incidentEvents(PROJECTS.incidents),
    ...edgeEvents(PROJECTS.edges),
  ]);
  ({ duck, ch } = engines);
}, SLOW);

afterAll(async () => {
  await engines?.close();
});

/** One question to both engines at once: ClickHouse's answer, then DuckDB's (both-engines.ts). */
const ask = <T>(question: (store: EventStore) => Promise<T>) => askBoth<EventStore, T>(ch, duck, question);

const range = (from: string, to: string): TimeRange => ({ fromMs: Date.parse(from), toMs: Date.parse(to) });

/** Ranges that hold everything, the suites' week, cuts through sessions, one day, and nothing. */
const RANGES: Record<string, TimeRange> = {
  'all time': range('2024-01-01T00:00:00Z', '2024-04-01T00:00:00Z'),
  'the suites’ week': range('2024-03-01T00:00:00Z', '2024-03-08T00:00:00Z'),
  'cutting sessions at both ends': range('2024-03-01T10:02:10Z', '2024-03-06T11:02:10Z'),
  'cutting the edge sessions': range('2024-03-10T10:00:30Z', '2024-03-10T12:00:30.500Z'),
  'one UTC day': range('2024-03-04T00:00:00Z', '2024-03-05T00:00:00Z'),
  empty: range('2023-01-01T00:00:00Z', '2023-01-02T00:00:00Z'),
};

const FILTERS: AcquisitionFilters[] = [
  {},
  { countries: ['DE'] },
  { countries: ['DE', 'US'], browsers: ['Chrome', 'Firefox'] },
  { sources: ['twitter'] },
  { mediums: ['social'] },
  { campaigns: ['launch', 'airdrop'] },
  { terms: ['defi'] },
  { contents: ['banner-a'] },
  { walletProviders: ['MetaMask'] },
  { walletProviders: ['Rabby Wallet'], countries: ['US'] },
  { countries: ['nowhere'] },
];

const DIMENSIONS: AttributionDimension[] = ['campaign', 'source', 'medium', 'content', 'term'];

/**
 * Every filter over the suites' week; a few over the ranges that cut sessions (a filter applies to the
 * session's events in the range); none or one elsewhere. Each case is a few dozen questions per engine.
 */
const filtersFor = (rangeName: string): AcquisitionFilters[] => {
  if (rangeName === 'the suites’ week') return FILTERS;
  if (rangeName.startsWith('cutting')) {
    return [
      {},
      { countries: ['DE'] },
      { campaigns: ['launch', 'airdrop'] },
      { walletProviders: ['MetaMask'] },
    ];
  }
  return [{}, { countries: ['DE'] }];
};

/** The project without events is asked over one range. */
const rangesOf = (project: string) =>
  Object.entries(RANGES).filter(([name]) => project !== 'none' || name === 'all time');

const byValue = <T extends { isTotal: boolean; value: string | null }>(rows: T[]) =>
  [...rows].sort(
    (a, b) => Number(a.isTotal) - Number(b.isTotal) || String(a.value).localeCompare(String(b.value)),
  );
const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));

describe('acquisition questions on ClickHouse, against DuckDB', { timeout: SLOW }, () => {
  for (const [project, projectId] of Object.entries(PROJECTS)) {
    for (const [name, r] of rangesOf(project)) {
      it(`funnel, attribution and filter options agree (${project}, ${name})`, async () => {
        for (const filters of filtersFor(name)) {
          const [funnel, expectedFunnel] = await ask((store) => store.funnelCounts(projectId, r, filters));
          expect(funnel, JSON.stringify(filters)).toEqual(expectedFunnel);
          // Every dimension without a filter; the two most used ones under each filter.
          const dimensions = Object.keys(filters).length === 0 ? DIMENSIONS : DIMENSIONS.slice(0, 2);
          for (const dimension of dimensions) {
            const [rows, expectedRows] = await ask((store) =>
              store.attributionCounts(projectId, r, dimension, filters),
            );
            expect(byValue(rows), `${dimension} ${JSON.stringify(filters)}`).toEqual(byValue(expectedRows));
          }
        }
        const [options, expectedOptions] = await ask((store) => store.filterOptions(projectId, r));
        expect(options).toEqual(expectedOptions);
      });

      it(`users by country and browser, new wallets agree (${project}, ${name})`, async () => {
        for (const limit of [1, 2, 10]) {
          const [countries, expectedCountries] = await ask((store) =>
            store.usersByCountry(projectId, r, limit),
          );
          expect(countries).toEqual(expectedCountries);
          const [browsers, expectedBrowsers] = await ask((store) =>
            store.usersByBrowser(projectId, r, limit),
          );
          expect(browsers).toEqual(expectedBrowsers);
        }
        for (const granularity of [null, '1h', '1d']) {
          const bucketed = bucketRange(r, granularity);
          if (bucketed.bucketCount > 5000) continue;
          const [wallets, expectedWallets] = await ask((store) => store.newWallets(projectId, bucketed));
          expect(wallets).toEqual(expectedWallets);
        }
      });
    }
  }
});

/** No search, a backslash, text in messages and stacks (any case), a code, a type's label, an address, pattern characters. */
const SEARCHES = [
  null,
  '\\',
  'AMOUNT',
  '-32603',
  'frontend error',
  '0x111',
  '%',
  '_x_',
  'rpc.other',
  'nothing like it',
];

/**
 * Where the lives asked beside a range end: after every event, and inside the suites' week (some lives reach
 * past it, so they are read from their occurrences).
 */
const LIVES_TO = [Date.parse('2024-04-01T00:00:00Z'), Date.parse('2024-03-05T00:00:00Z')];

/** Besides RANGES: from the start of time (the detail's default), which the lives answer when they end in it. */
const FROM_THE_START: [string, TimeRange][] = [
  ['from the start of time', { fromMs: 0, toMs: Date.parse('2024-04-01T00:00:00Z') }],
  ['from the start of time to mid-week', { fromMs: 0, toMs: Date.parse('2024-03-05T00:00:00Z') }],
];

const sortedParts = ({ summaries, lives }: SummariesAndLives) => ({
  summaries: byId(summaries),
  lives: byId(lives),
});

describe('incident questions on ClickHouse, against DuckDB', { timeout: SLOW }, () => {
  for (const [project, projectId] of Object.entries(PROJECTS)) {
    for (const [name, r] of [...rangesOf(project), ...FROM_THE_START]) {
      it(`incident summaries and lives asked together agree (${project}, ${name})`, async () => {
        const summaries = await duck.incidentSummaries(projectId, r);
        for (const livesToMs of LIVES_TO) {
          for (const search of [null, 'AMOUNT', '-32603', 'nothing like it']) {
            const asked = `${search} up to ${new Date(livesToMs).toISOString()}`;
            const [parts, expectedParts] = await ask((store) =>
              store.incidentSummariesAndLives(projectId, r, livesToMs, { search }),
            );
            expect(sortedParts(parts), asked).toEqual(sortedParts(expectedParts));
          }
          for (const summary of summaries) {
            const only = { incidentId: summary.id };
            const [one, expectedOne] = await ask((store) =>
              store.incidentSummariesAndLives(projectId, r, livesToMs, only),
            );
            expect(one).toEqual(expectedOne);
          }
        }
      });
    }

    for (const [name, r] of rangesOf(project)) {
      it(`incident summaries agree, with and without a search (${project}, ${name})`, async () => {
        for (const search of SEARCHES) {
          const [summaries, expectedSummaries] = await ask((store) =>
            store.incidentSummaries(projectId, r, { search }),
          );
          expect(byId(summaries), String(search)).toEqual(byId(expectedSummaries));
        }
        for (const summary of await duck.incidentSummaries(projectId, r)) {
          const [one, expectedOne] = await ask((store) =>
            store.incidentSummaries(projectId, r, { incidentId: summary.id }),
          );
          expect(one).toEqual(expectedOne);
        }
      });
    }

    it(`active users during the incidents, occurrences and trails agree (${project})`, async () => {
      const summaries = await duck.incidentSummaries(projectId, RANGES['all time'] as TimeRange);
      const spans = summaries.map((s) => ({
        incidentId: s.id,
        firstSeenMs: s.firstSeenMs,
        lastSeenMs: s.lastSeenMs,
      }));
      const [active, expectedActive] = await ask((store) => store.activeUsersDuring(projectId, spans));
      expect(active).toEqual(expectedActive);
      expect(await ch.activeUsersDuring(projectId, [])).toEqual(new Map());
      const events = await duck.projectEvents(projectId);
      for (const event of events) {
        const [found, occurrence] = await ask((store) => store.occurrenceById(projectId, event.id));
        expect(found, event.id).toEqual(occurrence);
        if (occurrence) {
          const [trail, expectedTrail] = await ask((store) => store.sessionTrail(projectId, occurrence));
          expect(trail).toEqual(expectedTrail);
        }
        if (event.type === 'tx') {
          const around = { sessionId: event.session_id, fromMs: event.ts - 5_000, toMs: event.ts + 5_000 };
          const [revert, expectedRevert] = await ask((store) => store.revertErrorNear(projectId, around));
          expect(revert).toEqual(expectedRevert);
        }
      }
      expect(await ch.occurrenceById(projectId, 'no such event')).toBeNull();
    });
  }
});
