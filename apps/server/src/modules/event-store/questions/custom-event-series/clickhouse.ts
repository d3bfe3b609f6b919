import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import {
  CUSTOM_EVENTS_WITH_IDENTITIES,
  IDENTITIES_CTE,
  IDENTITY,
  IN_RANGE,
  rangeParams,
} from '../../clickhouse/sql.ts';
import { type CustomEventDay, CustomEventDaySchema } from './question.ts';

/** One custom event name per calendar day of a time zone (docs/custom-events.md#series). */
export function customEventSeries(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  name: string,
  timeZone: string,
): Promise<CustomEventDay[]> {
  return clickhouse.rows(
    `WITH ${IDENTITIES_CTE}
     SELECT toString(toDate(e.ts, {zone:String})) AS day, count() AS events, uniqExact(${IDENTITY}) AS users
       FROM ${CUSTOM_EVENTS_WITH_IDENTITIES}
      WHERE ${IN_RANGE} AND e.type = 'custom' AND e.event_name = {name:String}
      GROUP BY day
      ORDER BY day`,
    { ...rangeParams(projectId, range), name, zone: timeZone },
    CustomEventDaySchema,
  );
}
