import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import {
  CUSTOM_EVENTS_WITH_IDENTITIES,
  IDENTITIES_CTE,
  IDENTITY,
  IN_RANGE,
  rangeParams,
} from '../../clickhouse/sql.ts';
import { type CustomEventBreakdownRow, CustomEventBreakdownSchema } from './question.ts';

/** The events of one custom event name by a property's value (docs/custom-events.md#breakdown). */
export function customEventBreakdown(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  name: string,
  key: string,
  limit: number,
): Promise<CustomEventBreakdownRow[]> {
  // A string member as its text; a number or boolean as its JSON text; absent: null.
  const props = 'assumeNotNull(e.props)';
  const value = `if(JSONType(${props}, {key:String}) = 'String', JSONExtractString(${props}, {key:String}),
                    nullIf(JSONExtractRaw(${props}, {key:String}), ''))`;
  return clickhouse.rows(
    `WITH ${IDENTITIES_CTE}
     SELECT ${value} AS value, count() AS events, uniqExact(${IDENTITY}) AS users
       FROM ${CUSTOM_EVENTS_WITH_IDENTITIES}
      WHERE ${IN_RANGE} AND e.type = 'custom' AND e.event_name = {name:String}
      GROUP BY value
      ORDER BY events DESC, value ASC NULLS LAST
      LIMIT {limit:UInt32}`,
    { ...rangeParams(projectId, range), name, key, limit },
    CustomEventBreakdownSchema,
  );
}
