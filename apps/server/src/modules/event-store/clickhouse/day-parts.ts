import { DAY_MS, type TimeRange } from '../../../reading/time-range.ts';
import type { Params } from './client.ts';

/**
 * A range as the tables kept per UTC day read it (`session_days`, `wallet_days`): its whole days
 * [days_from, days_to) from the table, and the partial days at its ends from `events` (none when the
 * range starts or ends at midnight UTC; the whole range when it holds no whole day). Parameter names
 * carry `prefix`, so that one query can read two ranges (a period and the one before it).
 */
export function rangeParts(
  range: TimeRange,
  prefix = '',
): { days: boolean; edges: [number, number][]; params: Params } {
  const daysFrom = Math.ceil(range.fromMs / DAY_MS) * DAY_MS;
  const daysTo = Math.floor(range.toMs / DAY_MS) * DAY_MS;
  if (daysFrom >= daysTo) return { days: false, edges: [[range.fromMs, range.toMs]], params: {} };
  const edges = (
    [
      [range.fromMs, daysFrom],
      [daysTo, range.toMs],
    ] as [number, number][]
  ).filter(([from, to]) => from < to);
  return { days: true, edges, params: { [`${prefix}days_from`]: daysFrom, [`${prefix}days_to`]: daysTo } };
}

/** The whole days of `rangeParts` (same prefix), as a condition on a `day` column. */
export const inWholeDays = (prefix = '') =>
  `day >= toDate(fromUnixTimestamp64Milli({${prefix}days_from:Int64}, 'UTC'), 'UTC')
           AND day < toDate(fromUnixTimestamp64Milli({${prefix}days_to:Int64}, 'UTC'), 'UTC')`;

/**
 * A range split for one query: `wholeDays`, a condition on `day` (null: no whole day), `partialDays`, a
 * condition on the events' `ts` (null: the range starts and ends at midnight UTC), and their parameters.
 */
export function dayParts(range: TimeRange, prefix = '') {
  const parts = rangeParts(range, prefix);
  const params: Params = { ...parts.params };
  const edges = parts.edges.map(([from, to], index) => {
    params[`${prefix}edge${index}_from`] = from;
    params[`${prefix}edge${index}_to`] = to;
    return `(ts >= fromUnixTimestamp64Milli({${prefix}edge${index}_from:Int64}, 'UTC')
             AND ts < fromUnixTimestamp64Milli({${prefix}edge${index}_to:Int64}, 'UTC'))`;
  });
  return {
    wholeDays: parts.days ? inWholeDays(prefix) : null,
    partialDays: edges.length === 0 ? null : `(${edges.join(' OR ')})`,
    params,
  };
}
