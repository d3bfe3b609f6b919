import type { AnalyticsFilters, Share } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter, withCtes } from '../../clickhouse/event-filter.ts';
import { EVENTS, IN_RANGE, rangeParams } from '../../clickhouse/sql.ts';
import { ShareRow, shareOf } from '../wallet-providers/question.ts';
import type { ExtraUserAttribute, UserAttribute } from './question.ts';

/** Users per value of an attribute; a blank value (`utm_source=` in a URL) is none, as null is. */
async function usersByAttribute(
  attribute: UserAttribute,
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
): Promise<Share[]> {
  const filter = eventFilter(filters, range);
  const rows = await clickhouse.rows(
    `${withCtes(filter.cte)}
     SELECT nullIf(${attribute}, '') AS share_key, uniqExact(user_id) AS share_value
       FROM ${EVENTS}
      WHERE ${IN_RANGE}${filter.events}
      GROUP BY share_key
      ORDER BY share_value DESC, share_key NULLS LAST
      LIMIT {limit:UInt32}`,
    { ...rangeParams(projectId, range), ...filter.params, limit },
    ShareRow,
  );
  return rows.map(shareOf);
}

/** Distinct users with any event in the range per browser (null: unknown), most users first. */
export const usersByBrowser = (
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
) => usersByAttribute('browser', clickhouse, projectId, range, limit, filters);

/** Distinct users with any event in the range per country (null: unknown), most users first. */
export const usersByCountry = (
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
) => usersByAttribute('country', clickhouse, projectId, range, limit, filters);

/** Distinct users with any event in the range per operating system, device type or landing UTM source. */
export const usersBy = (
  attribute: ExtraUserAttribute,
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
) => usersByAttribute(attribute, clickhouse, projectId, range, limit, filters);
