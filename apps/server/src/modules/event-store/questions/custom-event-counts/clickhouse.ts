import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import {
  CUSTOM_EVENTS_WITH_IDENTITIES,
  IDENTITIES_CTE,
  IDENTITY,
  IN_RANGE,
  rangeParams,
} from '../../clickhouse/sql.ts';
import { type CustomEventCount, CustomEventCountSchema } from './question.ts';

/** Per custom event name: its events and distinct users in the range (docs/custom-events.md#counts). */
export function customEventCounts(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
): Promise<CustomEventCount[]> {
  return clickhouse.rows(
    `WITH ${IDENTITIES_CTE}
     SELECT assumeNotNull(e.event_name) AS name, count() AS events, uniqExact(${IDENTITY}) AS users
       FROM ${CUSTOM_EVENTS_WITH_IDENTITIES}
      WHERE ${IN_RANGE} AND e.type = 'custom' AND e.event_name IS NOT NULL
      GROUP BY name
      ORDER BY events DESC, name`,
    rangeParams(projectId, range),
    CustomEventCountSchema,
  );
}
