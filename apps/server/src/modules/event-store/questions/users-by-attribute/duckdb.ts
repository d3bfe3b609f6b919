import type { DuckDBConnection } from '@duckdb/node-api';
import type { Share } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { IN_RANGE, rangeParams, rowsOf, textOrNull } from '../../duckdb/sql.ts';

/** Enrichment columns a users chart can be split by; a closed list, so the column name is never input. */
type UserAttribute = 'browser' | 'country';

async function usersByAttribute(
  attribute: UserAttribute,
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
  limit: number,
): Promise<Share[]> {
  const rows = await rowsOf(
    connection,
    `SELECT ${attribute} AS key, count(DISTINCT user_id)::DOUBLE AS value
       FROM events
      WHERE ${IN_RANGE}
      GROUP BY ${attribute}
      ORDER BY value DESC, key NULLS LAST
      LIMIT $limit`,
    { ...rangeParams(projectId, range), limit: BigInt(limit) },
  );
  return rows.map((row) => ({ key: textOrNull(row.key), value: Number(row.value) }));
}

/** Distinct users with any event in the range per browser (null: unknown), most users first. */
export const usersByBrowser = (
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
  limit: number,
) => usersByAttribute('browser', connection, projectId, range, limit);

/** Distinct users with any event in the range per country (null: unknown), most users first. */
export const usersByCountry = (
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
  limit: number,
) => usersByAttribute('country', connection, projectId, range, limit);
