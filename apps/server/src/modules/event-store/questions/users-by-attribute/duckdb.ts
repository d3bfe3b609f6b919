import type { AnalyticsFilters, Share } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import { type Connection, IN_RANGE, rangeParams, rowsOf } from '../../duckdb/sql.ts';
import { ShareRow, shareOf } from '../wallet-providers/question.ts';
import type { ExtraUserAttribute, UserAttribute } from './question.ts';

/** Users per value of an attribute; a blank value (`utm_source=` in a URL) is none, as null is. */
async function usersByAttribute(
  attribute: UserAttribute,
  connection: Connection,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
): Promise<Share[]> {
  const filter = await eventFilter(connection, projectId, range, filters);
  const rows = await rowsOf(
    connection,
    `${withCtes(filter.cte)}
     SELECT NULLIF(${attribute}, '') AS share_key, count(DISTINCT user_id)::DOUBLE AS share_value
       FROM events
      WHERE ${IN_RANGE}${filter.events}
      GROUP BY share_key
      ORDER BY share_value DESC, share_key NULLS LAST
      LIMIT $limit`,
    { ...rangeParams(projectId, range), ...filter.params, limit: BigInt(limit) },
    ShareRow,
  );
  return rows.map(shareOf);
}

/** Distinct users with any event in the range per browser (null: unknown), most users first. */
export const usersByBrowser = (
  connection: Connection,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
) => usersByAttribute('browser', connection, projectId, range, limit, filters);

/** Distinct users with any event in the range per country (null: unknown), most users first. */
export const usersByCountry = (
  connection: Connection,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
) => usersByAttribute('country', connection, projectId, range, limit, filters);

/** Distinct users with any event in the range per operating system, device type or landing UTM source. */
export const usersBy = (
  attribute: ExtraUserAttribute,
  connection: Connection,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
) => usersByAttribute(attribute, connection, projectId, range, limit, filters);
