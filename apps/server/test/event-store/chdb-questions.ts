import { Session } from 'chdb';
import type { z } from 'zod';
import type { ClickHouseReader, Params } from '../../src/modules/event-store/clickhouse/question-sql.ts';
import { type ColumnKind, EVENT_COLUMNS, type EventRow } from '../../src/modules/event-store/event-row.ts';

const TYPES: Record<ColumnKind, string> = {
  varchar: 'String',
  timestamp: "DateTime64(3, 'UTC')",
  bigint: 'Int64',
  hugeint: 'Int128',
};

/** The columns the adapter's table dictionary-encodes (LowCardinality types join and compare differently). */
const FEW_VALUES = new Set([
  'type',
  'origin',
  'sdk',
  'country',
  'browser',
  'os',
  'device',
  'wallet_provider',
  'wallet_rdns',
  'tx_stage',
  'tx_kind',
  'sig_stage',
  'sig_method',
  'error_source',
  'rpc_method',
  'utm_source',
  'utm_medium',
]);

const utcText = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/**
 * An in-process ClickHouse engine (chdb) holding `events` as the adapter's table does (ReplacingMergeTree
 * on (project_id, ts, id), read with FINAL), for checking the questions' SQL against rows the DuckDB
 * adapter stored. `copies` inserts every row that many times, in separate parts: FINAL must still count
 * each event once.
 */
export function chdbEvents(
  rows: readonly EventRow[],
  copies = 1,
): { clickhouse: ClickHouseReader; close(): void } {
  const session = new Session();
  // Two cores shared by many test processes: one thread per query is faster than contending for them.
  session.query('SET max_threads = 1');
  const columns = EVENT_COLUMNS.map(({ name, kind, required }) => {
    let type = required ? TYPES[kind] : `Nullable(${TYPES[kind]})`;
    if (FEW_VALUES.has(name)) type = `LowCardinality(${type})`;
    return `${name} ${type}`;
  });
  session.query(
    `CREATE TABLE events (${columns.join(', ')}) ENGINE = ReplacingMergeTree ORDER BY (project_id, ts, id)`,
  );
  const lines = rows.map((row) =>
    JSON.stringify(
      Object.fromEntries(
        EVENT_COLUMNS.map(({ name, kind }) => {
          const value = row[name];
          if (value === null) return [name, null];
          if (kind === 'timestamp') return [name, utcText(value as number)];
          return [name, typeof value === 'bigint' ? value.toString() : value];
        }),
      ),
    ),
  );
  for (let copy = 0; copy < copies && lines.length > 0; copy++) {
    session.query(`INSERT INTO events FORMAT JSONEachRow ${lines.join('\n')}`);
  }
  return {
    clickhouse: {
      async rows<T>(sql: string, params: Params, schema: z.ZodType<T>): Promise<T[]> {
        const text = session.queryBind(sql, params, 'JSONEachRow');
        return text
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => schema.parse(JSON.parse(line)));
      },
    },
    close: () => session.cleanup(),
  };
}
