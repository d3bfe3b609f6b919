import { z } from 'zod';
import { distinctDaySpans, type IncidentSpan } from '../../incident-questions.ts';
import type { ClickHouse } from '../client.ts';
import { count } from '../question-sql.ts';

const SpanUsersRow = z.object({ span: count, users: count });

/**
 * Distinct users of the project with any event during each incident's life (its UTC days, both ends
 * included): the denominator of its reach. One pass over the user-days of the spans' whole stretch
 * (`user_days`, derived-tables.ts: a user-day stored twice counts once in a distinct count), each counted
 * for every distinct day range that covers its day (incidents with the same days share a count).
 */
export async function activeUsersDuring(
  clickhouse: ClickHouse,
  projectId: string,
  spans: readonly IncidentSpan[],
): Promise<Map<string, number>> {
  if (spans.length === 0) return new Map();
  const daySpans = distinctDaySpans(spans);
  const rows = await clickhouse.rows(
    `WITH {firsts:Array(Date)} AS first_days, {lasts:Array(Date)} AS last_days
     SELECT span, uniqExact(user_id) AS users
       FROM (SELECT day, user_id
               FROM user_days
              WHERE project_id = {project:String} AND day >= arrayMin(first_days) AND day <= arrayMax(last_days))
      ARRAY JOIN arrayFilter(i -> first_days[i] <= day AND day <= last_days[i], arrayEnumerate(first_days)) AS span
      GROUP BY span`,
    {
      project: projectId,
      firsts: daySpans.map((daySpan) => daySpan.firstDay),
      lasts: daySpans.map((daySpan) => daySpan.lastDay),
    },
    SpanUsersRow,
  );
  // A range in nobody's active days has no row: its incidents count 0.
  const users = new Map(spans.map((span) => [span.incidentId, 0]));
  for (const row of rows) {
    for (const incidentId of daySpans[row.span - 1]?.incidentIds ?? []) users.set(incidentId, row.users);
  }
  return users;
}
