import type { Share } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { type Connection, IN_RANGE, rangeParams, rowsOf } from '../../duckdb/sql.ts';
import { ShareRow, shareOf } from '../wallet-providers/question.ts';
import type { UserAttribute } from './question.ts';

async function usersByAttribute(
  attribute: UserAttribute,
  connection: Connection,
  projectId: string,
  range: TimeRange,
  limit: number,
): Promise<Share[]> {
  const rows = await rowsOf(
    connection,
    `SELECT ${attribute} AS share_key, count(DISTINCT user_id)::DOUBLE AS share_value
       FROM events
      WHERE ${IN_RANGE}
      GROUP BY ${attribute}
      ORDER BY share_value DESC, share_key NULLS LAST
      LIMIT $limit`,
    { ...rangeParams(projectId, range), limit: BigInt(limit) },
    ShareRow,
  );
  return rows.map(shareOf);
}

/** Distinct users with any event in the range per browser (null: unknown), most users first. */
export const usersByBrowser = (connection: Connection, projectId: string, range: TimeRange, limit: number) =>
  usersByAttribute('browser', connection, projectId, range, limit);

/** Distinct users with any event in the range per country (null: unknown), most users first. */
export const usersByCountry = (connection: Connection, projectId: string, range: TimeRange, limit: number) =>
  usersByAttribute('country', connection, projectId, range, limit);
