import { EVENT_COLUMNS, type EventColumn, type Source } from '../event-row.ts';
import { ROWS_RECORD_PREFIX } from '../log-records.ts';

/**
 * An ingestion log segment (log-records.ts) as `events` rows, in SQL: DuckDB reads the file itself
 * (`read_json_objects`; the JavaScript thread never holds the segment), parses each record with
 * `json_transform` and maps it column by column as event-row.ts says. Both SELECTs give every column
 * of `events`, in table order.
 */

const JSON_SQL_TYPES = { text: 'VARCHAR', integer: 'BIGINT' } as const;
const RESERVED = new Set(['from', 'to']);
const member = (name: string) => (RESERVED.has(name) ? `"${name}"` : name);

/** `e`: the event, `q`: its request. */
function sqlOf(source: Source): string {
  switch (source.from) {
    case 'event':
      return ['e', ...source.path.map(member)].join('.');
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

type Structure = { [key: string]: string | Structure };

/** The JSON structure `json_transform` reads: every field a column's source names, with its type. */
function structureOf(sources: readonly Source[], from: 'event' | 'request'): Structure {
  const structure: Structure = {};
  const visit = (source: Source) => {
    if (source.from === 'event' && from === 'event') {
      let node = structure;
      source.path.slice(0, -1).forEach((key) => {
        node[key] ??= {};
        node = node[key] as Structure;
      });
      node[source.path.at(-1) as string] = JSON_SQL_TYPES[source.json];
    } else if (source.from === 'request' && from === 'request') {
      structure[source.field] = JSON_SQL_TYPES[source.json];
    } else if (source.from === 'lower' || source.from === 'only') {
      visit(source.of);
    } else if (source.from === 'coalesce') {
      source.of.forEach(visit);
    }
  };
  sources.forEach(visit);
  return structure;
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
const BATCH_COLUMNS = `{request: '${sqlTypeOf(structureOf(SOURCES, 'request'))}', events: '${sqlTypeOf(structureOf(SOURCES, 'event'))}[]'}`;

/**
 * The segment's lines as text: a line is a JSON object without raw control characters, so a CSV reader
 * with no quoting and a separator that cannot occur hands over each line whole, unparsed.
 */
const SEGMENT_LINES = `read_csv($1::VARCHAR, columns = {'line': 'VARCHAR'}, delim = '\\x01', quote = '', escape = '',
  header = false, auto_detect = false, max_line_size = 16777216)`;

/**
 * The events of the batch records of segment file `$1`, one row each. `read_json` with the records'
 * types parses each line straight into typed vectors: half the CPU of parsing lines and then
 * `json_transform`ing them (`npm run bench:load`). Rows records have neither key and are left out.
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
const ROW_STRUCTURE = JSON.stringify(
  Object.fromEntries(EVENT_COLUMNS.map(({ name, kind }) => [name, ROW_JSON_TYPES[kind]])),
);

/**
 * The rows records of segment file `$1`: the lines are scanned unparsed, and only the rows records (rare:
 * the published SDK's GraphQL mutations) are parsed.
 */
export const SELECT_ROWS_FROM_SEGMENT_ROWS = `SELECT ${EVENT_COLUMNS.map((column) => typed(column, `r.${column.name}`)).join(', ')}
  FROM (SELECT json_transform(line, '${ROW_STRUCTURE}') AS r
          FROM ${SEGMENT_LINES}
         WHERE starts_with(line, '${ROWS_RECORD_PREFIX}'))`;
