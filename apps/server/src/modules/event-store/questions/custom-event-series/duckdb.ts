import type { TimeRange } from '../../../../reading/time-range.ts';
import {
  type Connection,
  CUSTOM_EVENTS_WITH_IDENTITIES,
  IDENTITIES_CTE,
  IDENTITY,
  IN_RANGE,
  rangeParams,
  rowsOf,
} from '../../duckdb/sql.ts';
import { type CustomEventDay, CustomEventDaySchema } from './question.ts';

/** One custom event name per calendar day of a time zone (docs/custom-events.md#series). */
export function customEventSeries(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  name: string,
  timeZone: string,
): Promise<CustomEventDay[]> {
  return rowsOf(
    connection,
    `WITH ${IDENTITIES_CTE}
     SELECT strftime((ts AT TIME ZONE 'UTC') AT TIME ZONE $zone, '%Y-%m-%d') AS day,
            count(*)::DOUBLE AS events, count(DISTINCT ${IDENTITY})::DOUBLE AS users
       FROM ${CUSTOM_EVENTS_WITH_IDENTITIES}
      WHERE ${IN_RANGE} AND e.type = 'custom' AND event_name = $name
      GROUP BY day
      ORDER BY day`,
    { ...rangeParams(projectId, range), name, zone: timeZone },
    CustomEventDaySchema,
  );
}
