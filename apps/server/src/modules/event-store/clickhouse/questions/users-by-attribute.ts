import type { Share } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../client.ts';
import { count, textOrNull } from '../question-sql.ts';
import { EVENTS, IN_RANGE, rangeParams } from '../sql.ts';

const ShareRow = z.object({ key: textOrNull, value: count });

/** Enrichment columns a users chart can be split by; a closed list, so the column name is never input. */
type UserAttribute = 'browser' | 'country';

async function usersByAttribute(
  attribute: UserAttribute,
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  limit: number,
): Promise<Share[]> {
  const rows = await clickhouse.rows(
    `SELECT ${attribute} AS key, uniqExact(user_id) AS value
       FROM ${EVENTS}
      WHERE ${IN_RANGE}
      GROUP BY ${attribute}
      ORDER BY value DESC, key ASC NULLS LAST
      LIMIT {limit:UInt32}`,
    { ...rangeParams(projectId, range), limit },
    ShareRow,
  );
  return rows;
}

/** Distinct users with any event in the range per browser (null: unknown), most users first. */
export const usersByBrowser = (clickhouse: ClickHouse, projectId: string, range: TimeRange, limit: number) =>
  usersByAttribute('browser', clickhouse, projectId, range, limit);

/** Distinct users with any event in the range per country (null: unknown), most users first. */
export const usersByCountry = (clickhouse: ClickHouse, projectId: string, range: TimeRange, limit: number) =>
  usersByAttribute('country', clickhouse, projectId, range, limit);
