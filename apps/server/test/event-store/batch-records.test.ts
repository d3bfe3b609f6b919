import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { batchRecord } from '../../src/modules/event-store/duckdb/segment-rows.ts';
import {
  createDuckDbEventStore,
  type DuckDbEventStore,
} from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { rowToJson } from '../../src/modules/event-store/log-records.ts';
import { blankRow } from '../../src/modules/event-store/event-row.ts';
import { batchEntry } from '../../src/modules/ingestion/log-entries.ts';
import { mapEvent } from '../../src/modules/ingestion/map-event.ts';
import { everyEventShape } from '../ingestion/wire-events.ts';

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

async function rowsOf(projectId: string): Promise<Record<string, unknown>[]> {
  const connection = await (store as DuckDbEventStore).connect();
  try {
    const reader = await connection.runAndReadAll(
      'SELECT * EXCLUDE (project_id) FROM events WHERE project_id = $1 ORDER BY id',
      [projectId],
    );
    return reader.getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
  }
}

describe('SDK batch records, mapped to rows by DuckDB', () => {
  it('store every event shape exactly as the TypeScript mapping (map-event.ts) does, column by column', async () => {
    store = await createDuckDbEventStore({ file: ':memory:' });
    const events = everyEventShape();
    // The log's own encoding: incident ids on error events, hex as sent (mixed case).
    const entry = batchEntry(request('by_sql'), events);
    await store.insertLogSegment(segmentFile(entry.encode(new Set())));
    const facts = { ...request('by_ts'), projectId: 'by_ts', originHost: 'app.example.com' };
    await store.insertBatch(events.map((event, index) => mapEvent(event, index, facts)));

    const bySql = await rowsOf('by_sql');
    const byTypeScript = await rowsOf('by_ts');
    expect(bySql).toHaveLength(events.length);
    expect(bySql).toEqual(
      byTypeScript.map((row) => ({ ...row, incident_id: row.incident_id && expect.any(String) })),
    );
    // Incident ids are per project, so they differ between the two; both are set on the same rows.
    expect(bySql.map((row) => row.incident_id === null)).toEqual(
      byTypeScript.map((row) => row.incident_id === null),
    );
    // Spot checks of what the mapping has to get right.
    const tx = bySql.find((row) => row.id === 'tx_full001');
    expect(tx).toMatchObject({
      tx_stage: 'replaced',
      sig_stage: null,
      tx_hash: `0x${'ab'.repeat(32)}`,
      selector: '0xa9059cbb',
      tx_value: 1000000000000000000000n,
      chain_id: 10n,
      error_code: -32000n,
    });
    expect(bySql.find((row) => row.id === 'error_full')).toMatchObject({
      wallet_provider: 'Coinbase Wallet',
      chain_id: 137n,
      rpc_method: 'eth_sendTransaction',
      sig_method: null,
      gas_balance: 123456789012345678n,
    });
  });

  it('skip events known already, and stored ids on a second load (a replay after a crash)', async () => {
    store = await createDuckDbEventStore({ file: ':memory:' });
    const [first, second] = everyEventShape();
    const line = batchRecord(request('p1'), [first as object, second as object]);
    await store.insertLogSegment(segmentFile(`${line}\n`));
    // The replayed segment also holds a rows record (the published SDK's GraphQL path) next to them.
    const rowsRecord = rowToJson(
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
    await store.insertLogSegment(
      segmentFile(
        `${line}\n${rowsRecord}\n${batchRecord(request('p1'), [{ ...(first as object), id: 'page_new01' }])}\n`,
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
