import { DAY_MS } from '../../../../reading/time-range.ts';
import { QUARTER_MS } from '../../local-days.ts';
import { type LifecycleWindow, WINDOW_DAYS } from './question.ts';

/**
 * The zoned lifecycle window's local days seen from the UTC days it touches (docs/decisions/140). A UTC
 * day holding at most one local midnight of the window's zone is split by it into two parts, each in one
 * local day: a wallet was active in the first when its first quarter-hour that UTC day lies before the
 * midnight's, in the second when its last lies at or after it. So each wallet-day's first and last
 * quarter-hours (`wallet_day_bits`) tell its local days exactly. Per UTC day, from `firstDay` (its number
 * since 1970-01-01):
 * - `splits`: the quarter-hour of the day (0…95) the local midnight inside it starts, 96 when none is;
 * - `before` / `after`: the bit (bit b: b local days back from the as-of day, as `daysBackSql`) of the
 *   local day before / after the split, 0 when that part lies outside the window (a UInt64: bigint).
 * Null when a UTC day of the window holds two local midnights or more (a local day shorter than a day
 * inside one UTC day), or a midnight is not on a quarter-hour: those read the quarter-hours themselves.
 */
export type UtcDaySplits = {
  firstDay: number;
  splits: number[];
  before: bigint[];
  after: bigint[];
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

export function utcDaySplits(window: LifecycleWindow): UtcDaySplits | null {
  const midnights = localMidnights(window);
  if (midnights.some((ms) => ms % QUARTER_MS !== 0)) return null;
  const bit = (day: number) => (day >= 0 && day < WINDOW_DAYS ? 1n << BigInt(WINDOW_DAYS - 1 - day) : 0n);
  const firstDay = Math.floor(window.fromMs / DAY_MS);
  const lastDay = Math.floor((window.toMs - 1) / DAY_MS);
  const result: UtcDaySplits = { firstDay, splits: [], before: [], after: [] };
  for (let utcDay = firstDay; utcDay <= lastDay; utcDay++) {
    const start = utcDay * DAY_MS;
    const inside = midnights.filter((ms) => ms > start && ms < start + DAY_MS);
    if (inside.length > 1) return null;
    // The local day holding the UTC day's start (−1: before the window).
    const day = midnights.filter((ms) => ms <= start).length - 1;
    const split = inside[0];
    result.splits.push(split === undefined ? DAY_MS / QUARTER_MS : (split - start) / QUARTER_MS);
    result.before.push(bit(day));
    result.after.push(split === undefined ? 0n : bit(day + 1));
  }
  return result;
}
