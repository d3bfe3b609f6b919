import { z } from 'zod';
import { type EventBatch, textBatch } from '../event-batch.ts';
import type { ExportRange } from '../event-store.ts';
import { type ExportDialect, type ExportText, exportLineEnd, exportLineSql } from '../export-lines.ts';
import { cutWindows, type Span } from '../export-windows.ts';
import type { ClickHouse } from './client.ts';
import { EXPORT_PAGE_ROWS } from './export-events.ts';
import { EVENTS, IN_RANGE } from './sql.ts';

/** A ClickHouse string literal holding exactly `text` (its escapes: backslash, quote, control characters). */
const literal = (text: string) =>
  `'${text
    .replaceAll('\\', '\\\\')
    .replaceAll("'", "\\'")
    .replaceAll('\t', '\\t')
    .replaceAll('\r', '\\r')
    .replaceAll('\n', '\\n')}'`;

// The offset of the zone at `ts`, in whole minutes rounded as Math.round does (event-formats.ts).
const OFFSET_MINUTES = 'toInt64(floor(timeZoneOffset(toTimeZone(ts, {zone:String})) / 60 + 0.5))';

const CLICKHOUSE: ExportDialect = {
  literal,
  char: (code) => `char(${code})`,
  concat: (parts) => `concat(${parts.join(', ')})`,
  replace: (value, from, to) => `replaceAll(${value}, ${from}, ${to})`,
  containsAny: (value, codes) =>
    `multiSearchAny(${value}, [${codes.map((code) => literal(String.fromCharCode(code))).join(', ')}])`,
  matches: (value, pattern) => `match(${value}, ${pattern})`,
  decimal: (value) => `toString(${value})`,
  // DateTime64(3) as text is `2026-03-01 12:00:00.000` (years 1900–2299: always four digits).
  isoTime: (value) => `concat(replaceOne(toString(${value}, 'UTC'), ' ', 'T'), 'Z')`,
  localTime: (value) =>
    `concat(replaceOne(toString(${value}, {zone:String}), ' ', 'T'), if(${OFFSET_MINUTES} < 0, '-', '+'),
      leftPad(toString(intDiv(abs(${OFFSET_MINUTES}), 60)), 2, '0'), ':',
      leftPad(toString(abs(${OFFSET_MINUTES}) % 60), 2, '0'))`,
};

const HISTOGRAM_SQL = `SELECT intDiv(toUnixTimestamp64Milli(ts) - {fromMs:Int64}, {widthMs:Int64}) AS bucket, count() AS n
  FROM ${EVENTS} WHERE ${IN_RANGE} GROUP BY bucket ORDER BY bucket`;
const HistogramRow = z.object({ bucket: z.coerce.number(), n: z.coerce.number() });

/**
 * A window's lines in (ts, id) order, each ending as the format wants: TabSeparatedRaw writes each line as
 * it is and a LF after it (CSV's CR is part of the line).
 */
const windowSql = (text: ExportText) =>
  `SELECT ${text.format === 'csv' ? "concat(line, '\\r')" : exportLineEnd(CLICKHOUSE, text)}
   FROM (SELECT ${exportLineSql(CLICKHOUSE, text)} AS line, ts, id FROM ${EVENTS} WHERE ${IN_RANGE})
   ORDER BY ts, id`;

/**
 * The project's events in [from, to) as the export's text, written by ClickHouse (docs/decisions/077): the
 * range cut into windows of about `windowRows` rows (a histogram of `ts`, export-windows.ts), then one
 * query per window whose answer is the lines themselves (FORMAT TabSeparatedRaw), handed on in the pieces
 * the HTTP response arrives in. The next window is asked for only when the consumer has taken this one.
 */
export async function* exportText(
  clickhouse: ClickHouse,
  projectId: string,
  range: ExportRange,
  text: ExportText,
  windowRows = EXPORT_PAGE_ROWS,
): AsyncGenerator<EventBatch> {
  const windows = await cutWindows(
    async (part: Span, widthMs: number) =>
      (
        await clickhouse.rows(
          HISTOGRAM_SQL,
          { project: projectId, from: part.fromMs, to: part.toMs, fromMs: part.fromMs, widthMs },
          HistogramRow,
        )
      ).map(({ bucket, n }) => [bucket, n] as [number, number]),
    { fromMs: range.from.getTime(), toMs: range.to.getTime() },
    windowRows,
  );
  const sql = windowSql(text);
  for (const window of windows) {
    if (window.rows === 0) continue;
    const stream = await clickhouse.stream(`${sql} FORMAT TabSeparatedRaw`, {
      project: projectId,
      from: window.fromMs,
      to: window.toMs,
      ...(text.timeZone === null ? {} : { zone: text.timeZone }),
    });
    let rowCount = window.rows;
    try {
      for await (const piece of stream) {
        yield textBatch(rowCount, piece as Buffer);
        rowCount = 0;
      }
    } finally {
      // Ended early (the client left): the rest of the answer is not read.
      stream.destroy();
    }
  }
}
