import type { DuckDBConnection } from '@duckdb/node-api';
import type { IncidentSpan } from '../../incident-questions.ts';
import { type Params, rowsOf } from '../sql.ts';

/**
 * Distinct users of the project with any event during each incident's life (its UTC days, both ends
 * included): the denominator of its reach. Reads the derived `user_days` (one row per user and day, ADR 008).
 */
export async function activeUsersDuring(
  connection: DuckDBConnection,
  projectId: string,
  spans: readonly IncidentSpan[],
): Promise<Map<string, number>> {
  if (spans.length === 0) return new Map();
  const params: Params = { project: projectId };
  const values = spans.map((span, index) => {
    params[`id_${index}`] = span.incidentId;
    params[`first_${index}`] = BigInt(span.firstSeenMs);
    params[`last_${index}`] = BigInt(span.lastSeenMs);
    return `($id_${index}, make_timestamp($first_${index}::BIGINT * 1000)::DATE, make_timestamp($last_${index}::BIGINT * 1000)::DATE)`;
  });
  const rows = await rowsOf(
    connection,
    `WITH spans(incident_id, first_day, last_day) AS (VALUES ${values.join(', ')})
     SELECT s.incident_id, count(DISTINCT u.user_id)::DOUBLE AS users
       FROM spans s
       JOIN user_days u ON u.project_id = $project AND u.day BETWEEN s.first_day AND s.last_day
      GROUP BY s.incident_id`,
    params,
  );
  return new Map(rows.map((row) => [String(row.incident_id), Number(row.users)]));
}
