import type { DuckDBConnection } from '@duckdb/node-api';
import type { Share } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../time-range.ts';
import { IN_RANGE, rangeParams, rowsOf, textOrNull } from './sql.ts';

/** Distinct users with any event in the range per country (null: unknown), most users first. */
export async function usersByCountry(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
  limit: number,
): Promise<Share[]> {
  const rows = await rowsOf(
    connection,
    `SELECT country AS key, count(DISTINCT user_id)::DOUBLE AS value
       FROM events
      WHERE ${IN_RANGE}
      GROUP BY country
      ORDER BY value DESC, key NULLS LAST
      LIMIT $limit`,
    { ...rangeParams(projectId, range), limit: BigInt(limit) },
  );
  return rows.map((row) => ({ key: textOrNull(row.key), value: Number(row.value) }));
}
