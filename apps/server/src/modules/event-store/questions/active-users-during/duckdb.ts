import { z } from 'zod';
import { inTransaction } from '../../duckdb/derived-tables.ts';
import { type Connection, type Params, rowsOf } from '../../duckdb/sql.ts';
import { count } from '../../rows.ts';
import { type DaySpan, distinctDaySpans, type IncidentSpan, SpanUsersRow } from './question.ts';

/** One count per span and figure (`users_0`, `around_0`, …): DuckDB's own passes over its derived tables. */
const CountsRow = z.record(z.string(), count);

/**
 * Up to this many distinct day ranges are counted by one filtered distinct count each, over one scan of
 * the project's user-days; beyond it, by the gaps between each user's active days, whose cost does not grow
 * with the number of ranges. Bench data at 10 M events (largest project, 690,000 user-days), 2 cores at
 * load average 7–8: one filtered count about 30–60 ms, the gap count about 550–850 ms whatever the number
 * of ranges; the range join this replaced took 550–1,500 ms for 5 ranges and 5.5–8 s for 50.
 */
const FILTERED_COUNT_LIMIT = 8;

/** Ranges counted by one query over `keyed_user_lives` (two filtered counts each); more take several queries. */
const LIVES_PER_QUERY = 32;

/**
 * Distinct users of the project with any event during each incident's life (its UTC days, both ends
 * included): the denominator of its reach. The derived `keyed_user_lives` (each user's first and last day,
 * ADR 029) answers every range that no user's life strictly contains: a user whose life overlaps such a
 * range has their first or last day in it. For a range that some lives contain (active before and after
 * it), those users may or may not have a day inside, which only `user_days` (one row per user and day,
 * ADR 008) tells: such ranges are counted there, as before. An incident still occurring on the project's
 * latest day, or since its first, is never contained; the bench's 10 M events: 2–3 ms instead of 40–60.
 */
export async function activeUsersDuring(
  connection: Connection,
  projectId: string,
  spans: readonly IncidentSpan[],
): Promise<Map<string, number>> {
  if (spans.length === 0) return new Map();
  const daySpans = distinctDaySpans(spans);
  // One snapshot for both tables: a load between the two reads would count its users in one range only.
  const counts = await inTransaction(connection, async () => {
    const byLives = await usersByLives(connection, projectId, daySpans);
    const contained = daySpans.filter((_, index) => byLives[index] === null);
    if (contained.length === 0) return byLives;
    const byDays =
      contained.length <= FILTERED_COUNT_LIMIT
        ? await usersByFilteredCounts(connection, projectId, contained)
        : await usersByGaps(connection, projectId, contained);
    let next = 0;
    return byLives.map((count) => count ?? byDays[next++] ?? 0);
  });
  const users = new Map<string, number>();
  daySpans.forEach((daySpan, index) => {
    for (const incidentId of daySpan.incidentIds) users.set(incidentId, counts[index] ?? 0);
  });
  return users;
}

/**
 * Per range, from the users' lives: the users whose life overlaps it, or null when some life strictly
 * contains it (then that count may be too high). One scan of the project's lives per LIVES_PER_QUERY
 * ranges, two filtered counts each: no grouping by user.
 */
async function usersByLives(
  connection: Connection,
  projectId: string,
  daySpans: readonly DaySpan[],
): Promise<(number | null)[]> {
  const counts: (number | null)[] = [];
  for (let start = 0; start < daySpans.length; start += LIVES_PER_QUERY) {
    const chunk = daySpans.slice(start, start + LIVES_PER_QUERY);
    const first = (index: number) => `$first_${index}::DATE`;
    const last = (index: number) => `$last_${index}::DATE`;
    const columns = chunk.flatMap((_, index) => [
      `count(*) FILTER (WHERE first_day <= ${last(index)} AND last_day >= ${first(index)})::DOUBLE AS users_${index}`,
      `count(*) FILTER (WHERE first_day < ${first(index)} AND last_day > ${last(index)})::DOUBLE AS around_${index}`,
    ]);
    const [row] = await rowsOf(
      connection,
      `SELECT ${columns.join(', ')} FROM keyed_user_lives WHERE project_id = $project`,
      spanParams(projectId, chunk),
      CountsRow,
    );
    chunk.forEach((_, index) => {
      counts.push((row?.[`around_${index}`] ?? 0) > 0 ? null : (row?.[`users_${index}`] ?? 0));
    });
  }
  return counts;
}

/** `$first_i` and `$last_i` for every range, in order. */
function spanParams(projectId: string, daySpans: readonly DaySpan[]): Params {
  const params: Params = { project: projectId };
  daySpans.forEach((daySpan, index) => {
    params[`first_${index}`] = daySpan.firstDay;
    params[`last_${index}`] = daySpan.lastDay;
  });
  return params;
}

const between = (index: number) => `day BETWEEN $first_${index}::DATE AND $last_${index}::DATE`;

/**
 * One scan of the user-days the ranges cover, grouped by user (whether any of their days lies in each
 * range), then the users counted per range. A `count(DISTINCT user_id) FILTER (…)` per range took about
 * twice as long over the largest project's 690,000 user-days (ADR 025).
 */
async function usersByFilteredCounts(
  connection: Connection,
  projectId: string,
  daySpans: readonly DaySpan[],
): Promise<number[]> {
  const params = spanParams(projectId, daySpans);
  const flags = daySpans.map((_, index) => `bool_or(${between(index)}) AS in_${index}`);
  const columns = daySpans.map((_, index) => `count(*) FILTER (WHERE in_${index})::DOUBLE AS users_${index}`);
  const [row] = await rowsOf(
    connection,
    `SELECT ${columns.join(', ')}
       FROM (SELECT user_id, ${flags.join(', ')}
               FROM user_days
              WHERE project_id = $project AND (${daySpans.map((_, index) => between(index)).join(' OR ')})
              GROUP BY user_id)`,
    params,
    CountsRow,
  );
  return daySpans.map((_, index) => row?.[`users_${index}`] ?? 0);
}

/**
 * A user is active in [first, last] unless all their days are outside it: they started after it, ended
 * before it, or it falls in a gap between two of their active days. So the count is the users whose first
 * day is at most `last` and whose last day is at least `first`, less those with a gap (previous day before
 * `first`, next day after `last`); both are counted from per-day totals, not per user.
 */
async function usersByGaps(
  connection: Connection,
  projectId: string,
  daySpans: readonly DaySpan[],
): Promise<number[]> {
  const params = spanParams(projectId, daySpans);
  const ranges = daySpans
    .map((_, index) => `(${index}, $first_${index}::DATE, $last_${index}::DATE)`)
    .join(', ');
  const rows = await rowsOf(
    connection,
    `WITH spans(span, first_day, last_day) AS (VALUES ${ranges}),
     days AS (
       SELECT user_id, day, lead(day) OVER (PARTITION BY user_id ORDER BY day) AS next_day
         FROM user_days
        WHERE project_id = $project
     ),
     lives AS (
       SELECT first_day, last_day, count(*) AS users
         FROM (SELECT min(day) AS first_day, max(day) AS last_day FROM days GROUP BY user_id)
        GROUP BY ALL
     ),
     gaps AS (
       SELECT day AS before_gap, next_day AS after_gap, count(*) AS users
         FROM days
        WHERE next_day > day + 1
        GROUP BY ALL
     ),
     overlapping AS (
       SELECT s.span, sum(l.users) AS users
         FROM spans s JOIN lives l ON l.first_day <= s.last_day AND l.last_day >= s.first_day
        GROUP BY s.span
     ),
     skipping AS (
       SELECT s.span, sum(g.users) AS users
         FROM spans s JOIN gaps g ON g.before_gap < s.first_day AND g.after_gap > s.last_day
        GROUP BY s.span
     )
     SELECT s.span, (coalesce(o.users, 0) - coalesce(k.users, 0))::DOUBLE AS users
       FROM spans s LEFT JOIN overlapping o USING (span) LEFT JOIN skipping k USING (span)`,
    params,
    SpanUsersRow,
  );
  const counts = daySpans.map(() => 0);
  for (const row of rows) counts[row.span] = row.users;
  return counts;
}
