import type { DuckDBConnection } from '@duckdb/node-api';
import type { EventSpan } from '../../../../reading/time-range.ts';
import { rowsOf } from '../../duckdb/sql.ts';

/** The project's first and last event times: what "all time" means for an open range. */
export async function eventSpan(connection: DuckDBConnection, projectId: string): Promise<EventSpan> {
  const [row] = await rowsOf(
    connection,
    `SELECT epoch_ms(min(ts)) AS first_ms, epoch_ms(max(ts)) AS last_ms FROM events WHERE project_id = $project`,
    { project: projectId },
  );
  if (!row || row.first_ms === null) return null;
  return { firstMs: Number(row.first_ms), lastMs: Number(row.last_ms) };
}
