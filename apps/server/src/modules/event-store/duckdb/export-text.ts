import { randomUUID } from 'node:crypto';
import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { type EventBatch, textBatch } from '../event-batch.ts';
import type { ExportRange } from '../event-store.ts';
import {
  type ExportDialect,
  type ExportText,
  exportLineEnd,
  exportLineSql,
  LINE_END,
} from '../export-lines.ts';
import type { ConnectionPool } from './connection-pool.ts';
import { EXPORT_WINDOW_ROWS, windowsOf } from './export-events.ts';

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * A time as ISO 8601: strftime for years 0000–9999; beyond, `+010000-…` as Date.prototype.toISOString
 * writes it (a wall clock 14 hours ahead of 9999-12-31 is in year 10000).
 */
const iso = (value: string, zone: string) =>
  `(CASE WHEN year(${value}) BETWEEN 0 AND 9999 THEN strftime(${value}, '%Y-%m-%dT%H:%M:%S.%g${zone}')
    ELSE (CASE WHEN year(${value}) < 0 THEN '-' ELSE '+' END) || lpad(abs(year(${value}))::VARCHAR, 6, '0')
      || strftime(${value}, '-%m-%dT%H:%M:%S.%g${zone}') END)`;

// The zone's wall clock (ICU): `ts` is naive UTC, made a TIMESTAMPTZ in UTC, then read in the zone.
const WALL = "timezone($zone, timezone('UTC', ts))";
// The offset in whole minutes, rounded as Math.round does (event-formats.ts).
const OFFSET_MINUTES = `floor((epoch_ms(${WALL}) - epoch_ms(ts)) / 60000 + 0.5)::BIGINT`;

const DUCKDB: ExportDialect = {
  literal: quote,
  char: (code) => `chr(${code})`,
  concat: (parts) => `concat(${parts.join(', ')})`,
  replace: (value, from, to) => `replace(${value}, ${from}, ${to})`,
  containsAny: (value, codes) => `(${codes.map((code) => `contains(${value}, chr(${code}))`).join(' OR ')})`,
  matches: (value, pattern) => `regexp_matches(${value}, ${pattern})`,
  decimal: (value) => `${value}::VARCHAR`,
  isoTime: (value) => iso(value, 'Z'),
  localTime: () =>
    `(${iso(WALL, '')} || (CASE WHEN ${OFFSET_MINUTES} < 0 THEN '-' ELSE '+' END)
      || lpad((abs(${OFFSET_MINUTES}) // 60)::VARCHAR, 2, '0') || ':'
      || lpad((abs(${OFFSET_MINUTES}) % 60)::VARCHAR, 2, '0'))`,
};

/** The COPY of one window's lines into `file`, in (ts, id) order, without quoting or a header. */
function copySql(text: ExportText, file: string): string {
  return `COPY (
    SELECT ${exportLineEnd(DUCKDB, text)} FROM (
      SELECT ${exportLineSql(DUCKDB, text)} AS line, ts, id FROM events
      WHERE project_id = $project
        AND events.ts >= make_timestamp($fromUs::BIGINT) AND events.ts < make_timestamp($toUs::BIGINT)
    )
    ORDER BY ts, id
  ) TO ${quote(file)} (FORMAT csv, HEADER false, QUOTE '', ESCAPE '', NEW_LINE ${quote(LINE_END[text.format])})`;
}

/** Bytes of a window's file handed on at a time. */
const READ_BYTES = 1 << 20;

/**
 * Where the export's window files live: a folder of its own beside the database file, emptied when the
 * store opens (a crash's leftovers), each file removed once read or when its export ends.
 */
export function exportFolder(databaseFile: string): string {
  const folder = path.join(path.dirname(databaseFile), 'export-tmp');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  return folder;
}

type Window = { file: string; rows: number };

/**
 * The project's events in [from, to) as the export's text, written by DuckDB (docs/decisions/077): the
 * range is cut into windows as the value export's (`windowsOf`), each window's lines are written by one
 * `COPY … TO` on a pooled connection (DuckDB's threads format; the connection is held only while the
 * window is written), and the file is streamed in pieces of 1 MB, then deleted. The next window is
 * written while this one is read: at most two windows' files per export are on disk.
 */
export async function* exportText(
  pool: ConnectionPool,
  folder: string,
  projectId: string,
  range: ExportRange,
  text: ExportText,
  windowRows = EXPORT_WINDOW_ROWS,
): AsyncGenerator<EventBatch> {
  const span = { fromMs: range.from.getTime(), toMs: range.to.getTime() };
  const windows = await pool.use(
    projectId,
    (connection) => windowsOf(connection, projectId, span, windowRows),
    true,
  );
  const write = (window: (typeof windows)[number]): Promise<Window> => {
    const file = path.join(folder, `${randomUUID()}.${text.format}`);
    return pool.use(
      projectId,
      async (connection) => {
        try {
          const reader = await connection.runAndReadAll(copySql(text, file), {
            project: projectId,
            fromUs: BigInt(window.fromMs) * 1000n,
            toUs: BigInt(window.toMs) * 1000n,
            ...(text.timeZone === null ? {} : { zone: text.timeZone }),
          });
          return { file, rows: Number(reader.getRows()[0]?.[0] ?? 0) };
        } catch (error) {
          await rm(file, { force: true });
          throw error;
        }
      },
      true,
    );
  };
  let next: Promise<Window> | null =
    windows.length > 0 ? write(windows[0] as (typeof windows)[number]) : null;
  try {
    for (let index = 0; next; index++) {
      const written = await next;
      const following = windows[index + 1];
      next = following ? write(following) : null;
      // A consumer that stops pulling leaves the write ahead unawaited: its failure is not this one's.
      next?.catch(() => undefined);
      try {
        let rowCount = written.rows;
        for await (const piece of createReadStream(written.file, { highWaterMark: READ_BYTES })) {
          yield textBatch(rowCount, piece as Buffer);
          rowCount = 0;
        }
        if (rowCount > 0) yield textBatch(rowCount, Buffer.alloc(0));
      } finally {
        await rm(written.file, { force: true });
      }
    }
  } finally {
    // Ended early (the client left, a failure): the window written ahead goes too, once written; the
    // export ends now rather than after that COPY.
    next?.then((ahead) => rm(ahead.file, { force: true })).catch(() => undefined);
  }
}
