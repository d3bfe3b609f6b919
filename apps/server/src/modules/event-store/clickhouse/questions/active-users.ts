import { z } from 'zod';
import type { IncidentSpan } from '../../incident-questions.ts';
import type { ClickHouse } from '../client.ts';
import { count, utcDay } from '../question-sql.ts';
import { EVENTS } from '../sql.ts';

const SpanUsersRow = z.object({ span: count, users: count });

/** The UTC day of a time in ms, as ClickHouse reads a Date ('2024-03-01'). */
const dayText = (timeMs: number) => new Date(timeMs).toISOString().slice(0, 10);

/**
 * Distinct users of the project with any event during each incident's life (its UTC days, both ends
 * included): the denominator of its reach. One pass over the user-days of the spans' whole stretch, each
 * counted for every span that covers its day.
 */
export async function activeUsersDuring(
  clickhouse: ClickHouse,
  projectId: string,
  spans: readonly IncidentSpan[],
): Promise<Map<string, number>> {
  if (spans.length === 0) return new Map();
  const rows = await clickhouse.rows(
    `WITH {firsts:Array(Date)} AS first_days, {lasts:Array(Date)} AS last_days
     SELECT span, uniqExact(user_id) AS users
       FROM (SELECT DISTINCT ${utcDay('ts')} AS day, user_id
               FROM ${EVENTS}
              WHERE project_id = {project:String}
                AND ts >= toDateTime64(arrayMin(first_days), 3, 'UTC')
                AND ts < toDateTime64(arrayMax(last_days) + 1, 3, 'UTC'))
      ARRAY JOIN arrayFilter(i -> first_days[i] <= day AND day <= last_days[i], arrayEnumerate(first_days)) AS span
      GROUP BY span`,
    {
      project: projectId,
      firsts: spans.map((span) => dayText(span.firstSeenMs)),
      lasts: spans.map((span) => dayText(span.lastSeenMs)),
    },
    SpanUsersRow,
  );
  const users = new Map<string, number>();
  for (const row of rows) {
    const span = spans[row.span - 1];
    if (span) users.set(span.incidentId, row.users);
  }
  return users;
}
