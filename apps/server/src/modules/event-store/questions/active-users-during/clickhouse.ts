import { z } from 'zod';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { count } from '../../rows.ts';
import { type DaySpan, distinctDaySpans, type IncidentSpan, SpanUsersRow } from './question.ts';

/** Per span, the users whose life overlaps it and those whose life strictly contains it (ClickHouse's own pass). */
const LivesRow = z.object({ users: z.array(count), around: z.array(count) });

/**
 * Distinct users of the project with any event during each incident's life (its UTC days, both ends
 * included): the denominator of its reach. `user_lives` (each user's first and last day, ADR 032)
 * answers every range that no user's life strictly contains: a user whose life overlaps such a range has
 * their first or last day in it. A range some lives contain (users active before and after it) may fall
 * in a gap of theirs, which only `user_days` tells: those ranges are counted there. The same split as
 * DuckDB's (ADR 029).
 */
export async function activeUsersDuring(
  clickhouse: ClickHouse,
  projectId: string,
  spans: readonly IncidentSpan[],
): Promise<Map<string, number>> {
  if (spans.length === 0) return new Map();
  const daySpans = distinctDaySpans(spans);
  const byLives = await usersByLives(clickhouse, projectId, daySpans);
  const contained = daySpans.filter((_, index) => byLives[index] === null);
  const byDays = contained.length === 0 ? [] : await usersByDays(clickhouse, projectId, contained);
  let next = 0;
  const counts = byLives.map((users) => users ?? byDays[next++] ?? 0);
  const users = new Map<string, number>();
  daySpans.forEach((daySpan, index) => {
    for (const incidentId of daySpan.incidentIds) users.set(incidentId, counts[index] ?? 0);
  });
  return users;
}

const spanParams = (projectId: string, daySpans: readonly DaySpan[]) => ({
  project: projectId,
  firsts: daySpans.map((daySpan) => daySpan.firstDay),
  lasts: daySpans.map((daySpan) => daySpan.lastDay),
});

/**
 * Per range: the users whose life overlaps it, or null when some life strictly contains it. One pass over
 * the project's lives, folded per user (each a minimum and a maximum: a user's rows in parts not merged
 * yet fold to one life), every range's two counts summed element-wise (`sumForEach`). Grouped rather than
 * read with FINAL, which merges the parts' rows for more: on the bench's 10 M events (5 parts), 32 → 17.5
 * ms of chdb's CPU for the largest project and 15.5 → 9 for the median one (ADR 042).
 */
async function usersByLives(
  clickhouse: ClickHouse,
  projectId: string,
  daySpans: readonly DaySpan[],
): Promise<(number | null)[]> {
  const [row] = await clickhouse.rows(
    `WITH {firsts:Array(Date)} AS first_days, {lasts:Array(Date)} AS last_days
     SELECT sumForEach(arrayMap((f, l) -> toUInt64(first_day <= l AND last_day >= f), first_days, last_days)) AS users,
            sumForEach(arrayMap((f, l) -> toUInt64(first_day < f AND last_day > l), first_days, last_days)) AS around
       FROM (SELECT min(first_day) AS first_day, max(last_day) AS last_day
               FROM user_lives
              WHERE project_id = {project:String}
              GROUP BY user_id)`,
    spanParams(projectId, daySpans),
    LivesRow,
  );
  return daySpans.map((_, index) => ((row?.around[index] ?? 0) > 0 ? null : (row?.users[index] ?? 0)));
}

/**
 * Per range, the distinct users of its user-days: one pass over the user-days of the ranges' whole
 * stretch (`user_days`: a user-day stored twice counts once in a distinct count), each counted for every
 * range that covers its day.
 */
async function usersByDays(
  clickhouse: ClickHouse,
  projectId: string,
  daySpans: readonly DaySpan[],
): Promise<number[]> {
  const rows = await clickhouse.rows(
    `WITH {firsts:Array(Date)} AS first_days, {lasts:Array(Date)} AS last_days
     SELECT span, uniqExact(user_id) AS users
       FROM (SELECT day, user_id
               FROM user_days
              WHERE project_id = {project:String} AND day >= arrayMin(first_days) AND day <= arrayMax(last_days))
      ARRAY JOIN arrayFilter(i -> first_days[i] <= day AND day <= last_days[i], arrayEnumerate(first_days)) AS span
      GROUP BY span`,
    spanParams(projectId, daySpans),
    SpanUsersRow,
  );
  // A range in nobody's active days has no row: it counts 0.
  const counts = daySpans.map(() => 0);
  for (const row of rows) counts[row.span - 1] = row.users;
  return counts;
}
