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
import { type CustomEventBreakdownRow, CustomEventBreakdownSchema, jsonPointerOf } from './question.ts';

/** The events of one custom event name by a property's value (docs/custom-events.md#breakdown). */
export function customEventBreakdown(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  name: string,
  key: string,
  limit: number,
): Promise<CustomEventBreakdownRow[]> {
  return rowsOf(
    connection,
    `WITH ${IDENTITIES_CTE}
     SELECT json_extract_string(props, $pointer) AS value,
            count(*)::DOUBLE AS events, count(DISTINCT ${IDENTITY})::DOUBLE AS users
       FROM ${CUSTOM_EVENTS_WITH_IDENTITIES}
      WHERE ${IN_RANGE} AND e.type = 'custom' AND event_name = $name
      GROUP BY value
      ORDER BY events DESC, value NULLS LAST
      LIMIT $limit`,
    { ...rangeParams(projectId, range), name, pointer: jsonPointerOf(key), limit: BigInt(limit) },
    CustomEventBreakdownSchema,
  );
}
