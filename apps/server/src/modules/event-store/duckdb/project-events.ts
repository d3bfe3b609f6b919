import type { DuckDBConnection } from '@duckdb/node-api';
import { EVENT_COLUMNS, type EventColumn, type EventRow } from '../event-row.ts';

/** A column as EventRow types it: times as epoch ms, BIGINT columns as doubles. */
export function selectColumn({ name, kind }: EventColumn): string {
  if (kind === 'timestamp') return `epoch_ms(${name})::DOUBLE AS ${name}`;
  if (kind === 'bigint') return `${name}::DOUBLE AS ${name}`;
  return name;
}

/** Every column, so that every value arrives as EventRow types it. */
export const SELECT_LIST = EVENT_COLUMNS.map(selectColumn).join(', ');

/** Every stored event of a project as rows, oldest received first (ties by id). */
export async function readProjectEvents(
  connection: DuckDBConnection,
  projectId: string,
): Promise<EventRow[]> {
  const reader = await connection.runAndReadAll(
    `SELECT ${SELECT_LIST} FROM events WHERE project_id = $project ORDER BY received_at, id`,
    { project: projectId },
  );
  return reader.getRowObjectsJS() as EventRow[];
}
