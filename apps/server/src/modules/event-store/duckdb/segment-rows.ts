import { EVENT_COLUMNS, type EventColumn, type Source, type Structure, structureOf } from '../event-row.ts';

/**
 * An ingestion log segment (log-records.ts) as `events` rows, in SQL: DuckDB reads the file itself
 * (`read_json`; the JavaScript thread never holds the segment) and maps each record column by column
 * as event-row.ts says. Both SELECTs give every column of `events`, in table order.
 */

const JSON_SQL_TYPES = { text: 'VARCHAR', integer: 'BIGINT', object: 'JSON' } as const;
const RESERVED = new Set(['from', 'to']);
const member = (name: string) => (RESERVED.has(name) ? `"${name}"` : name);

/** `e`: the event, `q`: its request. */
function sqlOf(source: Source): string {
  switch (source.from) {
    case 'event': {
      const value = ['e', ...source.path.map(member)].join('.');
      return source.json === 'object' ? `CAST(${value} AS VARCHAR)` : value;
    }
    case 'request':
      return `q.${member(source.field)}`;
    case 'lower':
      return `lower(${sqlOf(source.of)})`;
    case 'coalesce':
      return `coalesce(${source.of.map(sqlOf).join(', ')})`;
    case 'only':
      return `CASE WHEN e.type = '${source.type}' THEN ${sqlOf(source.of)} END`;
  }
}

/** The column's value in the type of its kind: epoch ms → TIMESTAMP, decimal text → HUGEINT. */
function typed(column: EventColumn, expression: string): string {
  if (column.kind === 'timestamp') return `make_timestamp(${expression} * 1000)`;
  if (column.kind === 'hugeint') return `${expression}::HUGEINT`;
  return expression;
}

/** A structure as a DuckDB type: `STRUCT("k" VARCHAR, …)`, a list of one as `…[]`. */
function sqlTypeOf(structure: Structure | string): string {
  if (typeof structure === 'string') return structure;
  return `STRUCT(${Object.entries(structure)
    .map(([key, type]) => `"${key}" ${sqlTypeOf(type)}`)
    .join(', ')})`;
}

const SOURCES = EVENT_COLUMNS.map((column) => column.source);
/** A batch record's columns as `read_json` takes them: its request, and its events as a list. */
const BATCH_COLUMNS = `{request: '${sqlTypeOf(structureOf(SOURCES, 'request', JSON_SQL_TYPES))}', events: '${sqlTypeOf(structureOf(SOURCES, 'event', JSON_SQL_TYPES))}[]'}`;

/**
 * The events of the batch records of segment file `$1`, one row each. `read_json` with the records'
 * types parses each line straight into typed vectors: half the CPU of parsing lines and then
 * `json_transform`ing them (`npm run bench:load`). Rows records have neither key and are left out. Only
 * segments written before ADR 021 hold batch records.
 */
export const SELECT_ROWS_FROM_SEGMENT_BATCHES = `SELECT ${EVENT_COLUMNS.map((column) => typed(column, sqlOf(column.source))).join(', ')}
  FROM (SELECT request AS q, unnest(events) AS e
          FROM read_json($1::VARCHAR, format = 'newline_delimited', columns = ${BATCH_COLUMNS},
                         maximum_object_size = 16777216)
         WHERE request IS NOT NULL)`;

/** Rows records keep big numbers as decimal strings and times as epoch ms. */
const ROW_JSON_TYPES = {
  varchar: 'VARCHAR',
  timestamp: 'BIGINT',
  bigint: 'BIGINT',
  hugeint: 'VARCHAR',
} as const;
/** A rows record's columns as `read_json` takes them. */
const ROW_COLUMNS = EVENT_COLUMNS.map(({ name, kind }) => `'${name}': '${ROW_JSON_TYPES[kind]}'`).join(', ');
const ROW_SELECT = EVENT_COLUMNS.map((column) => typed(column, `"${column.name}"`)).join(', ');

/**
 * Segment file `$1` as rows, every line read as a rows record: `read_json` with the columns' types parses
 * each flat line straight into typed vectors, the cheapest way DuckDB has to read the log (ADR 021). A
 * line that is not a rows record (a batch record of an older log, or damage) reads as nulls, and the
 * insert into `events` fails on a NOT NULL column: the loader then reads the segment with the two
 * SELECTs below.
 */
export const SELECT_ROWS_FROM_SEGMENT = `SELECT ${ROW_SELECT}
  FROM read_json($1::VARCHAR, format = 'newline_delimited', columns = {${ROW_COLUMNS}},
                 maximum_object_size = 16777216)`;

/** The rows records of segment file `$1`, one row each; batch records (which have `request`) left out. */
export const SELECT_ROWS_FROM_SEGMENT_ROWS = `SELECT ${ROW_SELECT}
  FROM read_json($1::VARCHAR, format = 'newline_delimited',
                 columns = {${ROW_COLUMNS}, request: 'STRUCT(project VARCHAR)'}, maximum_object_size = 16777216)
 WHERE request IS NULL`;
