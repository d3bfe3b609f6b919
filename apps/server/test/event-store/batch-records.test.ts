import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDuckDbEventStore,
  type DuckDbEventStore,
} from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { blankRow, type EventRow, rowOfBatchEvent } from '../../src/modules/event-store/event-row.ts';
import { batchRecord, rowsRecord } from '../../src/modules/event-store/log-records.ts';
import { batchEntry } from '../../src/modules/ingestion/log-entries.ts';
import { everyEventShape } from '../ingestion/wire-events.ts';
import { storeRows } from '../support/event-stores.ts';

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

describe('SDK batch records, mapped to rows by DuckDB', () => {
  it('store every event shape exactly as the TypeScript mapping of event-row.ts does, column by column', async () => {
    store = await createDuckDbEventStore({ file: ':memory:' });
    const events = everyEventShape();
    // The log's own encoding: incident ids on error events, hex as sent (mixed case).
    const entry = batchEntry(request('by_sql'), events);
    const segment = entry.encode(new Set());
    await store.loadSegment(segmentFile(segment));
    // The same events mapped in TypeScript (incident ids as the batch record carries them), stored as rows.
    const logged = (JSON.parse(segment) as { events: object[] }).events;
    const byTypeScript = logged.map((event) => rowOfBatchEvent(request('by_ts'), event));
    await storeRows(store, byTypeScript);

    const bySql = await rowsOf('by_sql');
    expect(bySql).toHaveLength(events.length);
    // Incident ids are per project, so they differ between the two; both are set on the same rows.
    expect(bySql).toEqual(
      (await rowsOf('by_ts')).map((row) => ({ ...row, incident_id: row.incident_id && expect.any(String) })),
    );
    expect(bySql).toEqual(
      byTypeScript
        .map(({ project_id, ...row }) => row)
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((row) => ({ ...row, incident_id: row.incident_id && expect.any(String) })),
    );
    // Spot checks of what the mapping has to get right.
    const tx = bySql.find((row) => row.id === 'tx_full001');
    expect(tx).toMatchObject({
      tx_stage: 'replaced',
      sig_stage: null,
      tx_hash: `0x${'ab'.repeat(32)}`,
      selector: '0xa9059cbb',
      tx_value: 1000000000000000000000n,
      chain_id: 10,
      error_code: -32000,
    });
    expect(bySql.find((row) => row.id === 'error_full')).toMatchObject({
      wallet_provider: 'Coinbase Wallet',
      chain_id: 137,
      rpc_method: 'eth_sendTransaction',
      sig_method: null,
      gas_balance: 123456789012345678n,
    });
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
    expect(JSON.parse(skipped).events.map((event: { id: string }) => event.id)).toEqual(['page_min01']);
  });
});
