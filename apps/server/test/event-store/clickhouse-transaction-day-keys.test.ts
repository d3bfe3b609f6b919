import path from 'node:path';
import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ClickHouseEventStore,
  createClickHouseEventStore,
} from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { ClickHouse } from '../../src/modules/event-store/clickhouse/client.ts';
import {
  requestSession,
  transactionDaysOfEvents,
  transactionFolds,
} from '../../src/modules/event-store/clickhouse/transaction-days.ts';
import { createDuckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import type { EventStore } from '../../src/modules/event-store/event-store.ts';
import { bucketRange, type TimeRange } from '../../src/reading/time-range.ts';
import { templatedClickHouseStore } from '../support/chdb-template.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { databaseAtVersion } from './clickhouse-older-database.ts';
import { eventBuilder } from './event-builder.ts';
import { loadScattered, writeSegment } from './segment-file.ts';

/**
 * `transaction_days`' latest stage key (ADR 045): the latest stage as the largest of a key that orders
 * stages by time, then rank, with the outcome in its low bits. The stages where that order decides (a
 * stage without a name after an outcome, a request and its failure in the same millisecond, the latest
 * stage on the next day, times before 1970, whose keys are negative) give the outcomes DuckDB gives, on a
 * new database and on one upgraded from schema version 10, whose rows held `argMax` states.
 *
 * And the request key beside it (ADR 111): each transaction's first stage's time and session in one
 * number, whose minimum names the session of the first stage (every stage of the first millisecond is
 * logged in one session here, the later ones in another), before 1970 too, from the stored rows and from
 * a partial day's events alike, on a new database and on one upgraded from schema version 24.
 */

const PROJECT = 'p-ch-tx-keys';
const DAY = 86_400_000;
const HOUR = 3_600_000;
const DAY0 = Date.UTC(2026, 4, 10);
const BEFORE_1970 = Date.UTC(1969, 11, 30, 12);

type Stage = [offsetMs: number, stage: string | null];

/** Each transaction's stages from `start`: the cases where the latest stage's order decides the outcome. */
const TRANSACTIONS: Record<string, [start: number, stages: Stage[]]> = {
  'failed, then a stage without a name': [
    DAY0 + HOUR,
    [
      [0, 'requested'],
      [5_000, 'failed'],
      [9_000, null],
    ],
  ],
  'requested and failed in the same millisecond, failed logged first': [
    DAY0 + 3 * HOUR,
    [
      [0, 'failed'],
      [0, 'requested'],
    ],
  ],
  'submitted and reverted in the same millisecond': [
    DAY0 + 4 * HOUR,
    [
      [0, 'requested'],
      [7, 'reverted'],
      [7, 'submitted'],
    ],
  ],
  'reverted, then confirmed': [
    DAY0 + 5 * HOUR,
    [
      [0, 'requested'],
      [1_000, 'reverted'],
      [2_000, 'confirmed'],
    ],
  ],
  'confirmed, then reverted': [
    DAY0 + 6 * HOUR,
    [
      [0, 'requested'],
      [1_000, 'confirmed'],
      [2_000, 'reverted'],
    ],
  ],
  'reverted before midnight, failed after': [
    DAY0 + DAY - 60_000,
    [
      [0, 'requested'],
      [30_000, 'reverted'],
      [90_000, 'failed'],
    ],
  ],
  'failed before midnight, submitted after': [
    DAY0 + 2 * DAY - 60_000,
    [
      [0, 'requested'],
      [30_000, 'failed'],
      [90_000, 'submitted'],
    ],
  ],
  'a stage of another name last': [
    DAY0 + 2 * DAY + HOUR,
    [
      [0, 'requested'],
      [500, 'failed'],
      [900, 'cancelled'],
    ],
  ],
  'failed before 1970': [
    BEFORE_1970,
    [
      [0, 'requested'],
      [2_000, 'failed'],
    ],
  ],
  'reverted then replaced before 1970': [
    BEFORE_1970 + HOUR,
    [
      [0, 'requested'],
      [1_000, 'reverted'],
      [2_000, 'replaced'],
    ],
  ],
};

function fixture(): EventRow[] {
  const event = eventBuilder(PROJECT);
  // Every other transaction's first session in Chrome, the rest of the stages in Firefox: the filtered
  // outcomes keep a transaction by its request's session alone.
  return Object.entries(TRANSACTIONS).flatMap(([name, [start, stages]], index) =>
    stages.map(([offset, stage]) =>
      event('tx', start + offset, {
        tx_id: name,
        tx_stage: stage,
        wallet_address: '0xabc',
        session_id: offset === 0 ? `first-${name}` : 'later',
        browser: offset === 0 && index % 2 === 0 ? 'Chrome' : 'Firefox',
      }),
    ),
  );
}

/**
 * Each transaction alone (a range within one day: its stages from `events`), and ranges over whole days
 * and cut mid-day. None over whole days before 1970: a `Date` holds none, so the day tables cannot.
 */
const RANGES: TimeRange[] = [
  ...Object.values(TRANSACTIONS).map(([start]) => ({ fromMs: start, toMs: start + 1 })),
  { fromMs: DAY0, toMs: DAY0 + 3 * DAY },
  { fromMs: DAY0 + 2 * HOUR, toMs: DAY0 + DAY + 30 * 60_000 },
];

async function outcomes(store: EventStore, filters?: AnalyticsFilters) {
  const answers: unknown[] = [];
  for (const range of RANGES)
    answers.push([...(await store.transactionOutcomes(PROJECT, bucketRange(range), filters))]);
  return answers;
}

const CHROME: AnalyticsFilters = { browsers: ['Chrome'] };
/** Whole UTC days, a stage window inside each end: the filtered outcomes read no event there. */
const WHOLE_DAYS = bucketRange({ fromMs: DAY0 + DAY, toMs: DAY0 + 2 * DAY });

const Folded = z.object({ rows: z.array(z.string()) });

/** `transaction_days` folded per key, as sorted text, from `source`. */
async function folded(clickhouse: ClickHouse, source: string) {
  const [row] = await clickhouse.rows(
    `SELECT arraySort(groupArray(toString(tuple(day, tx_id, first, submitted, latest, request)))) AS rows
       FROM (SELECT day, tx_id, min(first_stage_at) AS first, max(has_submitted) AS submitted,
                    max(latest_stage_key) AS latest, min(request_key) AS request
               FROM (${source})
              GROUP BY day, tx_id)`,
    {},
    Folded,
  );
  return row?.rows ?? [];
}

async function expectInLine(clickhouse: ClickHouse) {
  const held = await folded(clickhouse, 'SELECT * FROM transaction_days');
  expect(held).toEqual(await folded(clickhouse, transactionDaysOfEvents()));
  return held;
}

const Requests = z.object({ misnamed: z.array(z.string()), transactions: z.coerce.number() });

/**
 * The transactions whose request session is not their first stage's (`first-<tx_id>`), and how many there
 * are: of the stored rows folded per transaction, or (`window`) as the filtered questions read them.
 */
async function requests(clickhouse: ClickHouse, window?: TimeRange) {
  const folds = window
    ? transactionFolds(window)
    : {
        sql: `SELECT tx_id, ${requestSession('min(request_key)')} AS t_request_session FROM transaction_days
               WHERE project_id = {project:String} GROUP BY tx_id`,
        params: {},
      };
  const [row] = await clickhouse.rows(
    `SELECT groupArrayIf(tx_id, t_request_session != cityHash64(concat('first-', tx_id))) AS misnamed,
            count() AS transactions
       FROM (${folds.sql})`,
    { project: PROJECT, ...folds.params },
    Requests,
  );
  return row;
}

/** Every transaction's request session, from the stored rows, whole days, partial days and before 1970. */
async function expectRequestSessions(clickhouse: ClickHouse) {
  const all = Object.keys(TRANSACTIONS).length;
  expect(await requests(clickhouse)).toEqual({ misnamed: [], transactions: all });
  expect(await requests(clickhouse, { fromMs: DAY0, toMs: DAY0 + 4 * DAY })).toEqual({
    misnamed: [],
    transactions: all - 2,
  });
  expect(await requests(clickhouse, { fromMs: DAY0 + 2 * HOUR, toMs: DAY0 + DAY + 30 * 60_000 })).toEqual({
    misnamed: [],
    transactions: 5,
  });
  expect(await requests(clickhouse, { fromMs: BEFORE_1970, toMs: BEFORE_1970 + 2 * HOUR })).toEqual({
    misnamed: [],
    transactions: 2,
  });
}

let duckdb: EventStore & { close(): Promise<void> };
const SLOW = 300_000;

const suite = useChdbSuite('polyflow-ch-tx-keys-', SLOW);

beforeAll(async () => {
  duckdb = await createDuckDbEventStore({ file: path.join(suite.dir, 'events.duckdb') });
  await duckdb.loadSegment(writeSegment(suite.dir, fixture()));
}, SLOW);

afterAll(async () => {
  await duckdb?.close();
});

describe('ClickHouse transaction-day keys (ADR 045)', { timeout: SLOW }, () => {
  it('give the outcomes DuckDB gives where the latest stage decides', async () => {
    const expected = await outcomes(duckdb);
    // The fixture reaches each outcome: a failed, a reverted, and a transaction neither.
    const [failedThenNone, sameMillisecond, , revertedThenConfirmed] = expected as [
      number,
      { failed: number; attempted: number },
    ][][];
    expect(failedThenNone?.[0]?.[1]).toMatchObject({ failed: 1, attempted: 1 });
    expect(sameMillisecond?.[0]?.[1]).toMatchObject({ failed: 1, attempted: 1 });
    expect(revertedThenConfirmed?.[0]?.[1]).toMatchObject({ failed: 0, attempted: 1 });
    const store = await templatedClickHouseStore(`${suite.url}/pf_tx_keys`);
    try {
      await loadScattered(store, suite.dir, fixture());
      expect((await expectInLine(store.clickhouse)).length).toBe(Object.keys(TRANSACTIONS).length + 2);
      expect(await outcomes(store)).toEqual(expected);
      await expectRequestSessions(store.clickhouse);
    } finally {
      await store.close();
    }
  });

  it('give the filtered outcomes DuckDB gives, from the request key alone over whole days (ADR 115)', async () => {
    const expected = await outcomes(duckdb, CHROME);
    // Some transactions pass, not all: the filter tells them apart by their first stage's session.
    const total = (answers: unknown[]) =>
      (answers as [number, { total: number }][][]).flat().reduce((sum, [, counts]) => sum + counts.total, 0);
    expect(total(expected)).toBeGreaterThan(0);
    expect(total(expected)).toBeLessThan(total(await outcomes(duckdb)));
    const store = await templatedClickHouseStore(`${suite.url}/pf_tx_keys_filtered`);
    try {
      await loadScattered(store, suite.dir, fixture());
      expect(await outcomes(store, CHROME)).toEqual(expected);
      const wholeDays = async () => [...(await store.transactionOutcomes(PROJECT, WHOLE_DAYS, CHROME))];
      const before = await wholeDays();
      expect(before.length).toBeGreaterThan(0);
      // The stages taken out of `events` alone (no derived table told): over whole days the filtered
      // question reads `session_values` and `transaction_days`, and answers as before.
      await store.clickhouse.command(
        `ALTER TABLE events DELETE WHERE project_id = {project:String} AND type = 'tx' SETTINGS mutations_sync = 2`,
        { project: PROJECT },
      );
      expect(await wholeDays()).toEqual(before);
    } finally {
      await store.close();
    }
  });

  it('are filled when the store starts on a database of schema version 10', async () => {
    const url = `${suite.url}/pf_tx_keys_v10`;
    const tables = await databaseAtVersion(url, 10, (writer) => loadScattered(writer, suite.dir, fixture()));
    expect(tables).toContain('transaction_days');
    const store: ClickHouseEventStore = await createClickHouseEventStore(url);
    try {
      const columns = await store.clickhouse.rows(
        "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'transaction_days'",
        {},
        z.object({ name: z.string() }),
      );
      expect(columns.map((column) => column.name)).toContain('latest_stage_key');
      expect(columns.map((column) => column.name)).not.toContain('latest_stage');
      const held = await expectInLine(store.clickhouse);
      expect(await outcomes(store)).toEqual(await outcomes(duckdb));
      // Loads after the upgrade go through the new view.
      const later = eventBuilder(PROJECT)('tx', DAY0 + 9 * DAY, {
        id: 'late',
        tx_id: 'late',
        tx_stage: 'failed',
      });
      await store.loadSegment(writeSegment(suite.dir, [later]));
      expect(await expectInLine(store.clickhouse)).toHaveLength(held.length + 1);
      const [[, late] = []] = await store.transactionOutcomes(
        PROJECT,
        bucketRange({ fromMs: DAY0 + 9 * DAY, toMs: DAY0 + 10 * DAY }),
      );
      expect(late).toEqual({ total: 1, submitted: 0, failed: 1, attempted: 1 });
    } finally {
      await store.close();
    }
  });

  it('get their request keys when the store starts on a database of schema version 24', async () => {
    const url = `${suite.url}/pf_tx_keys_v24`;
    const tables = await databaseAtVersion(url, 24, (writer) => loadScattered(writer, suite.dir, fixture()));
    expect(tables).toContain('transaction_days');
    const store: ClickHouseEventStore = await createClickHouseEventStore(url);
    try {
      const held = await expectInLine(store.clickhouse);
      await expectRequestSessions(store.clickhouse);
      expect(await outcomes(store)).toEqual(await outcomes(duckdb));
      const [parts] = await store.clickhouse.rows(
        "SELECT count() AS n FROM system.parts WHERE database = currentDatabase() AND table = 'transaction_days' AND active",
        {},
        z.object({ n: z.coerce.number() }),
      );
      expect(parts?.n).toBe(1);
      // Loads after the upgrade go through the new view.
      const later = eventBuilder(PROJECT)('tx', DAY0 + 9 * DAY, {
        id: 'late',
        tx_id: 'late',
        tx_stage: 'failed',
        session_id: 'first-late',
      });
      await store.loadSegment(writeSegment(suite.dir, [later]));
      expect(await expectInLine(store.clickhouse)).toHaveLength(held.length + 1);
      expect(await requests(store.clickhouse, { fromMs: DAY0 + 9 * DAY, toMs: DAY0 + 10 * DAY })).toEqual({
        misnamed: [],
        transactions: 1,
      });
    } finally {
      await store.close();
    }
  });
});
