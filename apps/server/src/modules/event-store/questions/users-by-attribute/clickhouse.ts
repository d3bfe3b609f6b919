import type { Share } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { EVENTS, IN_RANGE, rangeParams } from '../../clickhouse/sql.ts';
import { ShareRow, shareOf } from '../wallet-providers/question.ts';
import type { UserAttribute } from './question.ts';

async function usersByAttribute(
  attribute: UserAttribute,
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  limit: number,
): Promise<Share[]> {
  const rows = await clickhouse.rows(
    `SELECT ${attribute} AS share_key, uniqExact(user_id) AS share_value
       FROM ${EVENTS}
      WHERE ${IN_RANGE}
      GROUP BY ${attribute}
      ORDER BY share_value DESC, share_key NULLS LAST
      LIMIT {limit:UInt32}`,
    { ...rangeParams(projectId, range), limit },
    ShareRow,
  );
  return rows.map(shareOf);
}

/** Distinct users with any event in the range per browser (null: unknown), most users first. */
export const usersByBrowser = (clickhouse: ClickHouse, projectId: string, range: TimeRange, limit: number) =>
  usersByAttribute('browser', clickhouse, projectId, range, limit);

/** Distinct users with any event in the range per country (null: unknown), most users first. */
export const usersByCountry = (clickhouse: ClickHouse, projectId: string, range: TimeRange, limit: number) =>
  usersByAttribute('country', clickhouse, projectId, range, limit);
