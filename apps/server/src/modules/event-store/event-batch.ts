import { EVENT_COLUMNS, type EventRow } from './event-row.ts';

/**
 * The raw export's rows as an adapter hands them on: a batch that writes its values, row by row and in
 * EVENT_COLUMNS order within a row, into a writer the export's format provides (docs/decisions/028).
 * Nothing per value has to become a JavaScript object on the way: the DuckDB adapter hands over the
 * UTF-8 bytes DuckDB holds and the numbers of its vectors; an adapter that has rows already (ClickHouse)
 * hands over their strings and numbers.
 *
 * Values by kind: varchar as text (bytes or a string); hugeint as its decimal text; timestamp as epoch
 * ms (`time`); bigint as a number; a missing value as `missing`.
 */
export type EventValueWriter = {
  /** UTF-8 bytes `start` to `end` of `bytes` (valid UTF-8: the stores refuse anything else). */
  text(bytes: Uint8Array, start: number, end: number): void;
  string(value: string): void;
  number(value: number): void;
  time(ms: number): void;
  missing(): void;
  endRow(): void;
};

export type EventBatch = {
  readonly rowCount: number;
  /**
   * The rows already formatted by the engine, when the export asked for text (`ExportRange.text`):
   * a piece of the export's bytes. `rowCount` counts the rows that begin in it (docs/decisions/077).
   */
  readonly text?: Buffer;
  /** Writes every value of every row, in order; a batch may be written once. */
  writeTo(writer: EventValueWriter): void;
};

/** A piece of text formatted by the engine, counting the rows it starts (`EventBatch.text`). */
export function textBatch(rowCount: number, text: Buffer): EventBatch {
  return {
    rowCount,
    text,
    writeTo() {
      throw new Error('A batch of formatted text has no values to write.');
    },
  };
}

/** A batch of rows already in JavaScript (the ClickHouse adapter's pages, tests). */
export function rowBatch(rows: readonly EventRow[]): EventBatch {
  return {
    rowCount: rows.length,
    writeTo(writer) {
      for (const row of rows) {
        for (const { name, kind } of EVENT_COLUMNS) {
          const value = row[name];
          if (value === null) writer.missing();
          else if (kind === 'timestamp') writer.time(value as number);
          else if (typeof value === 'number') writer.number(value);
          else writer.string(typeof value === 'bigint' ? value.toString() : value);
        }
        writer.endRow();
      }
    },
  };
}

const utf8 = new TextDecoder();

/** A batch's rows as EventRow objects: what the tests compare with what was stored. */
export function batchRows(batch: EventBatch): EventRow[] {
  const rows: EventRow[] = [];
  let row: Record<string, unknown> = {};
  let column = 0;
  const put = (value: unknown) => {
    const { name, kind } = EVENT_COLUMNS[column++] as (typeof EVENT_COLUMNS)[number];
    row[name] = kind === 'hugeint' && typeof value === 'string' ? BigInt(value) : value;
  };
  batch.writeTo({
    text: (bytes, start, end) => put(utf8.decode(bytes.subarray(start, end))),
    string: put,
    number: put,
    time: put,
    missing: () => put(null),
    endRow() {
      if (column !== EVENT_COLUMNS.length) throw new Error(`a row of ${column} values`);
      rows.push(row as EventRow);
      row = {};
      column = 0;
    },
  });
  return rows;
}
