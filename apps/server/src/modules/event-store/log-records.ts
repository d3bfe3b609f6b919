import { EVENT_COLUMNS, type EventRow } from './event-row.ts';

/**
 * Rows travel to DuckDB as one JSON string that DuckDB parses itself (json_transform), on its own
 * threads: a single N-API call per batch instead of one per value, which kept the JS thread busy.
 * Big numbers go as strings (JSON numbers lose precision past 2^53) and are cast back to HUGEINT;
 * timestamps as epoch milliseconds.
 */
const JSON_TYPES = { varchar: 'VARCHAR', timestamp: 'BIGINT', bigint: 'BIGINT', hugeint: 'VARCHAR' } as const;
const ROW_STRUCTURE = Object.fromEntries(EVENT_COLUMNS.map(([name, kind]) => [name, JSON_TYPES[kind]]));
const SELECT_LIST = EVENT_COLUMNS.map(([name, kind]) =>
  kind === 'timestamp'
    ? `make_timestamp(r.${name} * 1000)`
    : kind === 'hugeint'
      ? `r.${name}::HUGEINT`
      : `r.${name}`,
).join(', ');

/** `SELECT <every events column> FROM <rows of $1>`, in the table's column order. */
export const SELECT_ROWS_FROM_JSON = `SELECT ${SELECT_LIST} FROM (SELECT unnest(json_transform($1::VARCHAR, '${JSON.stringify([ROW_STRUCTURE])}')) AS r)`;

/** Rows records start with this (rowToJson writes the columns in table order); batch records do not. */
export const ROWS_RECORD_PREFIX = '{"project_id":';

/** The same over the rows records of an ingestion log segment: the file `$1`, one record per line. */
export const SELECT_ROWS_FROM_LOG_FILE = `SELECT ${SELECT_LIST}
  FROM (SELECT json_transform(json, '${JSON.stringify(ROW_STRUCTURE)}') AS r
          FROM read_json_objects($1::VARCHAR, format = 'newline_delimited')
         WHERE starts_with(json::VARCHAR, '${ROWS_RECORD_PREFIX}'))`;

const KEYS = EVENT_COLUMNS.map(([name]) => JSON.stringify(name));

/** A row as one single-line JSON object; null columns are left out (json_transform reads them as NULL). */
export function rowToJson(row: EventRow): string {
  let object = '{';
  EVENT_COLUMNS.forEach(([name, kind], index) => {
    const value = row[name];
    if (value === null || value === undefined) return;
    if (object.length > 1) object += ',';
    object += `${KEYS[index]}:`;
    if (kind === 'varchar') object += JSON.stringify(value);
    else if (kind === 'hugeint') object += `"${(value as bigint).toString()}"`;
    else object += String(value);
  });
  return `${object}}`;
}

/** Rows as a JSON array of objects (what `SELECT_ROWS_FROM_JSON` reads). */
export function rowsToJson(rows: readonly EventRow[]): string {
  return `[${rows.map(rowToJson).join(',')}]`;
}
