import { DAY_MS, type TimeRange } from '../../../../reading/time-range.ts';
import { type LifecycleWindow, WINDOW_DAYS } from './question.ts';

/**
 * The zoned lifecycle window's local days seen from the UTC days it touches (docs/decisions/140). A UTC
 * day holding at most one local midnight of the window's zone is split by it into two parts, each in one
 * local day: a wallet was active in the first when its earliest time that UTC day lies before the
 * midnight, in the second when its latest lies at or after it. So one row per wallet-day with its first
 * and latest times (`wallet_list_days`) tells its local days exactly. Per UTC day, from the first:
 * - `splits`: the local midnight inside the day, in ms (the day's end when none is);
 * - `before` / `after`: the bit (bit b: b local days back from the as-of day, as `daysBackSql`) of the
 *   local day before / after the split, 0 when that part lies outside the window (or the day is in
 *   `irregular`), as decimal text (a UInt64 is past a JavaScript number's integers);
 * - `irregular`: the window's parts of the UTC days holding two local midnights or more (a local day
 *   shorter than 24 hours inside a UTC day), which the per-day times cannot tell apart: read finer.
 */
export type UtcDaySplits = {
  firstDay: string;
  lastDay: string;
  splits: string[];
  before: string[];
  after: string[];
  irregular: TimeRange[];
};

/** The local midnights of the window, its start to its end (`WINDOW_DAYS` + 1 instants). */
export function localMidnights(window: LifecycleWindow): number[] {
  const midnights = window.runs.flatMap((run, i) => {
    const days = (window.runs[i + 1]?.index ?? WINDOW_DAYS) - run.index;
    return Array.from({ length: days }, (_, day) => run.startMs + (run.regular ? day * DAY_MS : 0));
  });
  midnights.push(window.toMs);
  if (midnights.length !== WINDOW_DAYS + 1 || midnights[0] !== window.fromMs)
    throw new Error("the lifecycle window's runs name its local days");
  return midnights;
}

const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function utcDaySplits(window: LifecycleWindow): UtcDaySplits {
  const midnights = localMidnights(window);
  const bit = (day: number) => (day >= 0 && day < WINDOW_DAYS ? 1n << BigInt(WINDOW_DAYS - 1 - day) : 0n);
  const first = Math.floor(window.fromMs / DAY_MS);
  const last = Math.floor((window.toMs - 1) / DAY_MS);
  const result: UtcDaySplits = {
    firstDay: dateOf(first * DAY_MS),
    lastDay: dateOf(last * DAY_MS),
    splits: [],
    before: [],
    after: [],
    irregular: [],
  };
  for (let utcDay = first; utcDay <= last; utcDay++) {
    const start = utcDay * DAY_MS;
    const end = start + DAY_MS;
    const inside = midnights.filter((ms) => ms > start && ms < end);
    // The local day holding the UTC day's start (−1: before the window).
    const day = midnights.filter((ms) => ms <= start).length - 1;
    const regular = inside.length <= 1;
    if (!regular)
      result.irregular.push({ fromMs: Math.max(start, window.fromMs), toMs: Math.min(end, window.toMs) });
    result.splits.push(String(inside[0] ?? end));
    result.before.push(String(regular ? bit(day) : 0n));
    result.after.push(String(regular && inside.length === 1 ? bit(day + 1) : 0n));
  }
  return result;
}
