import { EVENT_COLUMNS, type EventColumn, type Source, type Structure, structureOf } from '../event-row.ts';

/**
 * An ingestion log segment (log-records.ts) as `events` rows, inside ClickHouse: the segment file is sent as
 * it is (`INSERT INTO incoming_records FORMAT JSONEachRow`, the Node thread never parses it) into a table of
 * the Null engine, which keeps nothing; two materialized views map each inserted block to `events`, one
 * for the batch records' events, one for the rows records. ClickHouse parses every line once, straight
 * into the typed tuples below (DuckDB's `read_json` with its columns does the same in segment-rows.ts).
 */

/** An object (properties) is read as its JSON text (`input_format_json_read_objects_as_strings`). */
const JSON_TYPES = {
  text: 'Nullable(String)',
  integer: 'Nullable(Int64)',
  object: 'Nullable(String)',
} as const;

/** A structure as a named ClickHouse Tuple (a JSON object is read into it by name). */
function tupleOf(structure: Structure): string {
  return `Tuple(${Object.entries(structure)
    .map(([key, type]) => `\`${key}\` ${typeof type === 'string' ? type : tupleOf(type)}`)
    .join(', ')})`;
}

const SOURCES = EVENT_COLUMNS.map((column) => column.source);
/** The request's fields as `incoming_records` reads them (schema.ts alters it when one is added). */
export const REQUEST_TYPE = tupleOf(structureOf(SOURCES, 'request', JSON_TYPES));
const EVENT_TYPE = tupleOf(structureOf(SOURCES, 'event', JSON_TYPES));

/** Rows records keep big numbers as decimal strings and times as epoch ms. */
export const ROW_JSON_TYPES = {
  varchar: 'Nullable(String)',
  timestamp: 'Nullable(Int64)',
  bigint: 'Nullable(Int64)',
  hugeint: 'Nullable(String)',
} as const;

/**
 * What a segment's lines are read into: a batch record fills `request` and `events`, a rows record the
 * columns named as `events`' own. Nothing is stored here (Null engine): the views below take each block.
 */
export const CREATE_INCOMING_RECORDS = `CREATE TABLE IF NOT EXISTS incoming_records (
  request ${REQUEST_TYPE},
  events Array(${EVENT_TYPE}),
  ${EVENT_COLUMNS.map(({ name, kind }) => `${name} ${ROW_JSON_TYPES[kind]}`).join(',\n  ')}
) ENGINE = Null`;

const quoted = (name: string) => `\`${name}\``;

/** `e`: the event, `q`: its request. */
function sqlOf(source: Source): string {
  switch (source.from) {
    case 'event':
      return `e.${source.path.map(quoted).join('.')}`;
    case 'request':
      return `request.${quoted(source.field)}`;
    case 'lower':
      return `lower(${sqlOf(source.of)})`;
    case 'coalesce':
      return `coalesce(${source.of.map(sqlOf).join(', ')})`;
    case 'only':
      return `if(e.type = '${source.type}', ${sqlOf(source.of)}, NULL)`;
  }
}

/**
 * The column's value in its type: epoch ms → DateTime64, decimal text → Int128. A required column gets no
 * NULL: a record without it fails the load (a record error, which the loader quarantines).
 */
function typed(column: EventColumn, expression: string): string {
  let value = expression;
  if (column.kind === 'timestamp') value = `fromUnixTimestamp64Milli(${expression}, 'UTC')`;
  else if (column.kind === 'hugeint') value = `CAST(${expression} AS Nullable(Int128))`;
  // CAST of NULL to a type without NULL fails the insert, as DuckDB's NOT NULL does.
  if (column.required) value = `CAST(${value} AS ${REQUIRED_TYPES[column.kind]})`;
  return `${value} AS ${column.name}`;
}

const REQUIRED_TYPES = {
  varchar: 'String',
  timestamp: "DateTime64(3, 'UTC')",
  bigint: 'Int64',
  hugeint: 'Int128',
};

/**
 * What a segment of rows records alone is read into (every segment ingestion writes since ADR 021): the
 * same rows-record columns without the batch record's nested ones, so an insert plans one plain view
 * instead of both. The batch view costs most of a small load even when no batch record is in it
 * (measured through chdb: 230 ms of CPU for a 2,500-event segment with both views, 90 ms with the rows
 * view alone; ADR 022).
 */
export const CREATE_INCOMING_ROWS = `CREATE TABLE IF NOT EXISTS incoming_rows (
  ${EVENT_COLUMNS.map(({ name, kind }) => `${name} ${ROW_JSON_TYPES[kind]}`).join(',\n  ')}
) ENGINE = Null`;

/**
 * Each view first keeps only its own kind of record: a required column's CAST would otherwise meet the
 * other kind's NULLs (ClickHouse computes the request's columns before it unfolds the events).
 */
export const CREATE_LOAD_VIEWS = [
  `CREATE MATERIALIZED VIEW IF NOT EXISTS load_batch_records TO events AS
SELECT ${EVENT_COLUMNS.map((column) => typed(column, sqlOf(column.source))).join(',\n       ')}
  FROM (SELECT request, events FROM incoming_records WHERE notEmpty(events))
 ARRAY JOIN events AS e`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS load_rows_records TO events AS
SELECT ${EVENT_COLUMNS.map((column) => typed(column, column.name)).join(',\n       ')}
  FROM (SELECT * FROM incoming_records WHERE project_id IS NOT NULL)`,
];

/** The views that load segments into `events`: made again when a column is added (schema.ts). */
export const LOAD_VIEW_NAMES = ['load_batch_records', 'load_rows_records', 'load_incoming_rows'] as const;

/** `incoming_rows` into `events`, as `load_rows_records` maps the same records. */
export const CREATE_ROWS_VIEW = `CREATE MATERIALIZED VIEW IF NOT EXISTS load_incoming_rows TO events AS
SELECT ${EVENT_COLUMNS.map((column) => typed(column, column.name)).join(',\n       ')}
  FROM (SELECT * FROM incoming_rows WHERE project_id IS NOT NULL)`;
