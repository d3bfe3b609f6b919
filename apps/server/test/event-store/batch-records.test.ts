import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDuckDbEventStore,
  type DuckDbEventStore,
} from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { blankRow, type EventRow, rowOfBatchEvent } from '../../src/modules/event-store/event-row.ts';
import {
  batchRecord,
  rowsOfRecord,
  rowsRecord,
  rowsRecordsOfBatch,
} from '../../src/modules/event-store/log-records.ts';
import { batchEntry } from '../../src/modules/ingestion/log-entries.ts';
import { everyEventShape } from '../ingestion/wire-events.ts';
import { templatedClickHouseStore } from '../support/chdb-template.ts';
import { storeRows } from '../support/event-stores.ts';
import { workerChdb } from '../support/worker-chdb.ts';

const request = (project: string) => ({
  project,
  origin: 'app.example.com',
  receivedAt: 1_767_225_601_234,
  sdk: 'polyflow/1.2.3',
  country: 'DE',
  browser: 'Firefox',
  os: 'Linux',
  device: 'desktop',
});

/** An ingestion log segment file holding `lines` (records, one per line). */
function segmentFile(lines: string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'polyflow-segment-')), 'segment');
  writeFileSync(file, lines);
  return file;
}

let store: DuckDbEventStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** A project's rows without the project id (the mappings below store the same events in two projects). */
async function rowsOf(projectId: string): Promise<Omit<EventRow, 'project_id'>[]> {
  const rows = await (store as DuckDbEventStore).projectEvents(projectId);
  return rows.map(({ project_id, ...row }) => row).sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** The lines of a segment's text. */
const linesOf = (text: string) => text.split('\n').filter(Boolean);

/** Every event shape as ingestion logs it: error events with their incident id (set by batchEntry). */
function loggedEvents(project: string): object[] {
  const events = everyEventShape();
  const incidents = new Map(
    linesOf(batchEntry(request(project), events).encode(new Set()))
      .flatMap(rowsOfRecord)
      .map((row) => [row.id, row.incident_id]),
  );
  return events.map((event) => {
    const incidentId = incidents.get(event.id);
    return incidentId ? { ...event, incidentId } : event;
  });
}

/** Spot checks of what a mapping of SDK events to rows has to get right. */
function expectSpotChecks(rows: Omit<EventRow, 'project_id'>[]): void {
  expect(rows.find((row) => row.id === 'tx_full001')).toMatchObject({
    tx_stage: 'replaced',
    sig_stage: null,
    tx_hash: `0x${'ab'.repeat(32)}`,
    selector: '0xa9059cbb',
    tx_value: 1000000000000000000000n,
    chain_id: 10,
    error_code: -32000,
  });
  expect(rows.find((row) => row.id === 'error_full')).toMatchObject({
    wallet_provider: 'Coinbase Wallet',
    chain_id: 137,
    rpc_method: 'eth_sendTransaction',
    sig_method: null,
    gas_balance: 123456789012345678n,
  });
}

/** Rows sorted by id, without the project id. */
const byId = (rows: EventRow[]) =>
  rows.map(({ project_id, ...row }) => row).sort((a, b) => (a.id < b.id ? -1 : 1));

describe('SDK events as ingestion logs them: a rows record each (ADR 053)', () => {
  it('read in TypeScript, give every event shape exactly as the mapping of event-row.ts does', () => {
    const logged = loggedEvents('p1');
    const segment = batchEntry(request('p1'), everyEventShape()).encode(new Set());
    const lines = linesOf(segment);
    expect(lines).toHaveLength(logged.length);
    expect(lines.flatMap(rowsOfRecord)).toEqual(logged.map((event) => rowOfBatchEvent(request('p1'), event)));
    expect(lines.every((line) => line.startsWith('{"project_id":"p1","id":'))).toBe(true);
  });

  it('write text that needs escaping as JSON does, and every event shape as rowsRecord writes its row', () => {
    const awkward = [
      'say "hi"',
      'back\\slash',
      'line\nbreak\ttab\u0000nul',
      'emoji 🦊 fox',
      'lone \ud800 surrogate',
      'separators \u2028\u2029',
    ];
    const events = everyEventShape().flatMap((event, index): object[] =>
      event.type === 'error'
        ? awkward.map((text, variant) => ({
            ...event,
            id: `awk${index}_${variant}`,
            message: text,
            stack: text,
          }))
        : [{ ...event, path: awkward[index % awkward.length] }],
    );
    const lines = linesOf(rowsRecordsOfBatch(request('p"1'), events));
    expect(lines).toHaveLength(events.length);
    lines.forEach((line, index) => {
      const row = rowOfBatchEvent(request('p"1'), events[index] as object);
      // Byte for byte what the writer of one finished row (rowsRecord) gives for the mapped row.
      expect(line).toBe(rowsRecord(row));
      expect(rowsOfRecord(line)).toEqual([row]);
    });
  });

  it('store every event shape exactly as the TypeScript mapping does, column by column', async () => {
    store = await createDuckDbEventStore({ file: ':memory:' });
    await store.loadSegment(segmentFile(batchEntry(request('p1'), everyEventShape()).encode(new Set())));
    const stored = await rowsOf('p1');
    expect(stored).toEqual(byId(loggedEvents('p1').map((event) => rowOfBatchEvent(request('p1'), event))));
    expectSpotChecks(stored);
  });
});

describe('SDK batch records (a log written before ADR 021), mapped to rows by DuckDB', () => {
  it('store every event shape exactly as the TypeScript mapping of event-row.ts does, column by column', async () => {
    store = await createDuckDbEventStore({ file: ':memory:' });
    const logged = loggedEvents('by_sql');
    const segment = `${batchRecord(request('by_sql'), logged)}\n`;
    await store.loadSegment(segmentFile(segment));
    // The same events mapped in TypeScript, read back from the record as a whole.
    expect(linesOf(segment).flatMap(rowsOfRecord)).toEqual(
      logged.map((event) => rowOfBatchEvent(request('by_sql'), event)),
    );
    const byTypeScript = logged.map((event) => rowOfBatchEvent(request('by_ts'), event));
    await storeRows(store, byTypeScript);

    const bySql = await rowsOf('by_sql');
    expect(bySql).toHaveLength(logged.length);
    expect(bySql).toEqual(await rowsOf('by_ts'));
    expect(bySql).toEqual(byId(byTypeScript));
    expectSpotChecks(bySql);
  });

  it('skip events known already, and stored ids on a second load (a replay after a crash)', async () => {
    store = await createDuckDbEventStore({ file: ':memory:' });
    const [first, second] = everyEventShape();
    const line = batchRecord(request('p1'), [first as object, second as object]);
    await store.loadSegment(segmentFile(`${line}\n`));
    // The replayed segment also holds a rows record (the published SDK's GraphQL path) next to them.
    const legacy = rowsRecord(
      blankRow({
        project_id: 'p1',
        id: 'legacy_01',
        type: 'page_view',
        ts: 1_700_000_000_000,
        received_at: 1_700_000_000_001,
        user_id: 'u1',
        session_id: 's1',
        origin: 'app.example.com',
      }),
    );
    await store.loadSegment(
      segmentFile(
        `${line}\n${legacy}\n${batchRecord(request('p1'), [{ ...(first as object), id: 'page_new01' }])}\n`,
      ),
    );
    expect((await rowsOf('p1')).map((row) => row.id)).toEqual([
      'legacy_01',
      'page_full1',
      'page_min01',
      'page_new01',
    ]);
    // The log writer leaves out the events of a batch that are duplicates.
    const skipped = batchEntry(request('p2'), [first, second] as never).encode(new Set([0]));
    expect(
      linesOf(skipped)
        .flatMap(rowsOfRecord)
        .map((row) => row.id),
    ).toEqual(['page_min01']);
  });

  it('store rows records once when their segment is loaded again', async () => {
    store = await createDuckDbEventStore({ file: ':memory:' });
    const [first, second] = everyEventShape() as [object, object];
    const records = batchEntry(request('p3'), [first, second] as never).encode(new Set());
    await store.loadSegment(segmentFile(records));
    const later = batchEntry(request('p3'), [{ ...first, id: 'page_new02' }] as never).encode(new Set());
    await store.loadSegment(segmentFile(`${records}${later}`));
    expect((await rowsOf('p3')).map((row) => row.id)).toEqual(['page_full1', 'page_min01', 'page_new02']);
  });
});

describe('the same segments loaded into ClickHouse (chdb over HTTP)', () => {
  it('store every event shape as DuckDB does: rows records alone (incoming_rows) and beside a batch record (incoming_records)', async () => {
    const chdb = await workerChdb();
    const clickhouse = await templatedClickHouseStore(`${chdb.url}/pf_batch_records`);
    try {
      const rowsOnly = batchEntry(request('ch_rows'), everyEventShape()).encode(new Set());
      const mixed = `${batchRecord(request('ch_mixed'), loggedEvents('ch_mixed'))}\n${rowsRecord(
        blankRow({
          project_id: 'ch_mixed',
          id: 'graphql_1',
          type: 'page_view',
          ts: 1_767_225_600_000,
          received_at: 1_767_225_601_234,
          user_id: 'u1',
          session_id: 's1',
          origin: 'app.example.com',
        }),
      )}\n`;
      await clickhouse.loadSegment(segmentFile(rowsOnly));
      await clickhouse.loadSegment(segmentFile(mixed));
      const expected = (project: string) =>
        byId(loggedEvents(project).map((event) => rowOfBatchEvent(request(project), event)));
      expect(byId(await clickhouse.projectEvents('ch_rows'))).toEqual(expected('ch_rows'));
      const mixedRows = byId(await clickhouse.projectEvents('ch_mixed'));
      expect(mixedRows.filter((row) => row.id !== 'graphql_1')).toEqual(expected('ch_mixed'));
      expect(mixedRows.find((row) => row.id === 'graphql_1')).toMatchObject({
        type: 'page_view',
        user_id: 'u1',
      });
      expectSpotChecks(mixedRows);
    } finally {
      await clickhouse.close();
    }
  }, 120_000);
});
