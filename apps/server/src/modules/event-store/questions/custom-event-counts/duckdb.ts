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
import { type CustomEventCount, CustomEventCountSchema } from './question.ts';

/** Per custom event name: its events and distinct users in the range (docs/custom-events.md#counts). */
export function customEventCounts(
  connection: Connection,
  projectId: string,
  range: TimeRange,
): Promise<CustomEventCount[]> {
  return rowsOf(
    connection,
    `WITH ${IDENTITIES_CTE}
     SELECT event_name AS name, count(*)::DOUBLE AS events, count(DISTINCT ${IDENTITY})::DOUBLE AS users
       FROM ${CUSTOM_EVENTS_WITH_IDENTITIES}
      WHERE ${IN_RANGE} AND e.type = 'custom' AND event_name IS NOT NULL
      GROUP BY event_name
      ORDER BY events DESC, name`,
    rangeParams(projectId, range),
    CustomEventCountSchema,
  );
}
