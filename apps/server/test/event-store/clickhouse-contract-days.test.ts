import path from 'node:path';
import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ClickHouseEventStore,
  createClickHouseEventStore,
} from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { ClickHouse } from '../../src/modules/event-store/clickhouse/client.ts';
import { contractDaysOfEvents } from '../../src/modules/event-store/clickhouse/contract-days.ts';
import { createDuckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import type { EventStore } from '../../src/modules/event-store/event-store.ts';
import type { TimeRange } from '../../src/reading/time-range.ts';
import { templatedClickHouseStore } from '../support/chdb-template.ts';
import { askBoth } from './both-engines.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { databaseAtVersion } from './clickhouse-older-database.ts';
import { eventBuilder, sequence } from './event-builder.ts';
import { loadScattered, writeSegment } from './segment-file.ts';

/**
 * `contract_days` (ADR 038): the contract functions read a range's stage window's whole UTC days from it
 * and the partial days at its ends from `events`. Whatever the loads (a transaction's stages spread over
 * several loads, out of order, each stage loaded twice) and the deletes (a wallet, old events cut mid-day,
 * a user, a project), they answer exactly as DuckDB's for ranges at midnight, cut mid-day and within one
 * day, and the table holds what a rebuild from the stored events holds; a database of schema version 8
 * gets it, filled, when the store starts on it.
 */

const PROJECT = 'p-ch-contracts';
const OTHER = 'p-ch-contracts-other';
const HOUR = 3_600_000;
const MINUTE = 60_000;
const DAY = 86_400_000;
const DAY0 = Date.UTC(2026, 3, 1);
const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const CONTRACTS = [wallet(0xc1), wallet(0xc2), wallet(0xc3)];
const SELECTORS = ['0xa9059cbb', '0x095ea7b3', null];

/**
 * Four users over five days, a transaction every 70 minutes or so: its stages (requested, then submitted
 * or failed, then confirmed or reverted) minutes to hours apart, some across midnight; most of them calls
 * of one of three contracts and selectors (one without a selector) on one of two chains, the rest plain
 * transfers; some sent from a wallet that a delete below forgets.
 */
function fixture(projectId: string, seed: number): EventRow[] {
  const event = eventBuilder(projectId);
  const pick = sequence(seed);
  const rows: EventRow[] = [];
  for (let index = 0; index < 100; index += 1) {
    const user = `u${index % 4}`;
    const requested = DAY0 + index * 70 * MINUTE + pick([0, 11, 29]) * MINUTE;
    const contract = pick([true, true, true, false]);
    const fields: Partial<EventRow> = {
      user_id: user,
      session_id: `${user}-${Math.floor(requested / DAY)}`,
      country: index % 4 < 2 ? 'DE' : 'US',
      tx_id: `tx-${index}`,
      tx_kind: contract ? 'contract' : 'transfer',
      tx_to: contract ? pick(CONTRACTS) : wallet(index + 1),
      selector: contract ? pick(SELECTORS) : null,
      chain_id: pick([1, 10]),
      tx_from: pick([wallet(1), wallet(2), wallet(3)]),
      wallet_address: wallet((index % 3) + 1),
    };
    rows.push(event('tx', requested, { ...fields, tx_stage: 'requested' }));
    const sent = pick(['submitted', 'submitted', 'failed', null]);
    if (!sent) continue;
    const sentAt = requested + pick([1, 5, 90]) * MINUTE;
    rows.push(event('tx', sentAt, { ...fields, tx_stage: sent }));
    if (sent === 'submitted') {
      const outcome = pick(['confirmed', 'reverted', null]);
      if (outcome)
        rows.push(event('tx', sentAt + pick([1, 3 * 60]) * MINUTE, { ...fields, tx_stage: outcome }));
    }
  }
  return rows;
}

/** Ranges at midnight UTC, cut mid-day at either end or both, inside one day, and one ending at midnight. */
const RANGES: Record<string, TimeRange> = {
  'five days': { fromMs: DAY0, toMs: DAY0 + 5 * DAY },
  'days 2 to 4': { fromMs: DAY0 + DAY, toMs: DAY0 + 4 * DAY },
  'cut mid-day at both ends': {
    fromMs: DAY0 + DAY + 13 * HOUR + 41 * MINUTE,
    toMs: DAY0 + 3 * DAY + 9 * HOUR,
  },
  'inside one day': { fromMs: DAY0 + 2 * DAY + 8 * HOUR + 55 * MINUTE, toMs: DAY0 + 2 * DAY + 19 * HOUR },
  'no whole day, to midnight': { fromMs: DAY0 + 3 * DAY + 11 * HOUR + 10 * MINUTE, toMs: DAY0 + 4 * DAY },
};

/** Two users' sessions are in Germany, two in the US: the filtered answers keep half the transactions. */
const GERMANY: AnalyticsFilters = { countries: ['DE'] };

async function functionAnswers(store: EventStore, projectId: string) {
  const answers: Record<string, unknown> = {};
  for (const [name, range] of Object.entries(RANGES)) {
    answers[name] = await store.contractFunctions(projectId, range, 50);
    answers[`${name}, filtered`] = await store.contractFunctions(projectId, range, 50, GERMANY);
  }
  return answers;
}

const Folded = z.object({ rows: z.array(z.string()) });

/** `contract_days` folded per key, and the same rows rebuilt from the stored events, as sorted text. */
async function heldAndRebuilt(clickhouse: ClickHouse) {
  const folded = (source: string) =>
    clickhouse
      .rows(
        `SELECT arraySort(groupArray(toString(tuple(*)))) AS rows
           FROM (SELECT project_id, day, tx_id, min(first_stage_at), max(has_submitted),
                        argMinMerge(chain_state), anyMerge(contract_state), anyMerge(selector_state)
                   FROM (${source})
                  GROUP BY project_id, day, tx_id)`,
        {},
        Folded,
      )
      .then(([row]) => row?.rows ?? []);
  return {
    held: await folded('SELECT * FROM contract_days'),
    rebuilt: await folded(contractDaysOfEvents('', 'events FINAL')),
  };
}

async function expectInLine(clickhouse: ClickHouse): Promise<string[]> {
  const { held, rebuilt } = await heldAndRebuilt(clickhouse);
  expect(held).toEqual(rebuilt);
  return held;
}

const SLOW = 300_000;
const suite = useChdbSuite('polyflow-ch-contracts-', SLOW);

describe('ClickHouse contract days (ADR 038)', { timeout: SLOW }, () => {
  it('answer the contract functions as DuckDB does, through scattered loads and every kind of delete', async () => {
    const rows = [...fixture(PROJECT, 5), ...fixture(OTHER, 9)];
    const clickhouse = await templatedClickHouseStore(`${suite.url}/pf_contracts`);
    const duckdb = await createDuckDbEventStore({ file: path.join(suite.dir, 'events.duckdb') });
    try {
      await Promise.all([
        loadScattered(clickhouse, suite.dir, rows),
        duckdb.loadSegment(writeSegment(suite.dir, rows)),
      ]);
      const held = await expectInLine(clickhouse.clickhouse);
      // Contract transactions of both projects, over several days.
      expect(held.length).toBeGreaterThan(100);
      const [fromClickHouse, answers] = await askBoth(clickhouse, duckdb, (engine: EventStore) =>
        functionAnswers(engine, PROJECT),
      );
      // The fixture reaches every figure, and the partial days change them: a range within one day reads
      // nothing but events, and a range cut at both ends answers differently from its whole days alone.
      expect((answers['inside one day'] as unknown[]).length).toBeGreaterThan(0);
      expect(answers['cut mid-day at both ends']).not.toEqual(
        await duckdb.contractFunctions(PROJECT, { fromMs: DAY0 + 2 * DAY, toMs: DAY0 + 3 * DAY }, 50),
      );
      expect(answers['five days']).toContainEqual(expect.objectContaining({ selector: '0x' }));
      expect((answers['five days, filtered'] as unknown[]).length).toBeGreaterThan(0);
      expect(answers['five days, filtered']).not.toEqual(answers['five days']);
      expect(fromClickHouse).toEqual(answers);

      const deletes: [string, (store: EventStore) => Promise<number>][] = [
        ['a wallet', (store) => store.deleteWalletEvents(PROJECT, wallet(2))],
        [
          'events before a time mid-day',
          (store) => store.deleteEventsBefore(PROJECT, new Date(DAY0 + DAY + 13 * HOUR)),
        ],
        ['a user', (store) => store.deleteUserEvents(PROJECT, 'u3')],
      ];
      for (const [what, remove] of deletes) {
        const [removedByClickHouse, removed] = await askBoth(clickhouse, duckdb, remove);
        expect(removed, what).toBeGreaterThan(0);
        expect(removedByClickHouse, what).toBe(removed);
        await expectInLine(clickhouse.clickhouse);
        const [clickhouseAnswers, duckdbAnswers] = await askBoth(clickhouse, duckdb, (engine: EventStore) =>
          functionAnswers(engine, PROJECT),
        );
        expect(clickhouseAnswers, what).toEqual(duckdbAnswers);
      }
      await clickhouse.deleteProjectEvents(PROJECT);
      const left = await expectInLine(clickhouse.clickhouse);
      expect(left.length).toBeGreaterThan(0);
      expect(left.every((row) => row.includes(OTHER))).toBe(true);
    } finally {
      await clickhouse.close();
      await duckdb.close();
    }
  });

  it('answer the filtered contract functions over whole days from the derived tables alone (ADR 115)', async () => {
    const clickhouse = await templatedClickHouseStore(`${suite.url}/pf_contracts_filtered`);
    try {
      await loadScattered(clickhouse, suite.dir, fixture(PROJECT, 5));
      const range = RANGES['days 2 to 4'] as TimeRange;
      const before = await clickhouse.contractFunctions(PROJECT, range, 50, GERMANY);
      expect(before.length).toBeGreaterThan(0);
      // The stages taken out of `events` alone (no derived table told): the passing sessions come from
      // `session_values`, the transactions from `contract_days` and their request keys from
      // `transaction_days`, and the answer stays.
      await clickhouse.clickhouse.command(
        `ALTER TABLE events DELETE WHERE project_id = {project:String} AND type = 'tx' SETTINGS mutations_sync = 2`,
        { project: PROJECT },
      );
      expect(await clickhouse.contractFunctions(PROJECT, range, 50, GERMANY)).toEqual(before);
    } finally {
      await clickhouse.close();
    }
  });

  it('is created and filled when the store starts on a database of schema version 8', async () => {
    const url = `${suite.url}/pf_contracts_v8`;
    const tables = await databaseAtVersion(url, 8, (writer) =>
      loadScattered(writer, suite.dir, fixture(PROJECT, 5)),
    );
    expect(tables).not.toContain('contract_days');

    const store: ClickHouseEventStore = await createClickHouseEventStore(url);
    try {
      const held = await expectInLine(store.clickhouse);
      expect(held.length).toBeGreaterThan(50);
      // Loads after the upgrade go through the view.
      const late = eventBuilder(PROJECT)('tx', DAY0 + 9 * DAY, {
        id: 'late',
        tx_id: 'tx-late',
        tx_stage: 'submitted',
        tx_kind: 'contract',
        tx_to: CONTRACTS[0],
        chain_id: 1,
      });
      await store.loadSegment(writeSegment(suite.dir, [late]));
      expect(await expectInLine(store.clickhouse)).toHaveLength(held.length + 1);
      expect(
        await store.contractFunctions(PROJECT, { fromMs: DAY0 + 9 * DAY, toMs: DAY0 + 9 * DAY + HOUR }, 10),
      ).toEqual([{ chainId: 1, contract: CONTRACTS[0], selector: '0x', calls: 1 }]);
    } finally {
      await store.close();
    }
  });
});
