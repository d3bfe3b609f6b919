import { DAY_MS } from '../../../../reading/time-range.ts';
import { QUARTER_MS } from '../../local-days.ts';
import { type LifecycleWindow, WINDOW_DAYS } from './question.ts';

/**
 * The zoned lifecycle window's local days seen from the UTC days it touches (docs/decisions/140). A UTC
 * day holding at most one local midnight of the window's zone is split by it into two parts, each in one
 * local day: a wallet was active in the first when its first quarter-hour that UTC day lies before the
 * midnight's, in the second when its last lies at or after it. So each wallet-day's first and last
 * quarter-hours (`wallet_day_bits`) tell its local days exactly. The UTC days (numbered since
 * 1970-01-01) as runs `[from, to)` alike: the same `split` (the quarter-hour of the day, 0…95, the local
 * midnight inside it starts; 96 when none is) and the local day (0: the window's first) holding the UTC
 * day's start `offset` days from its number (−1 and less: before the window). Null when a UTC day of the
 * window holds two local midnights or more (a local day shorter than a day inside one UTC day), or a
 * midnight is not on a quarter-hour: those read the quarter-hours themselves.
 */
export type UtcDayRun = { from: number; to: number; split: number; offset: number };

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

export function utcDaySplits(window: LifecycleWindow): UtcDayRun[] | null {
  const midnights = localMidnights(window);
  if (midnights.some((ms) => ms % QUARTER_MS !== 0)) return null;
  const runs: UtcDayRun[] = [];
  const lastDay = Math.floor((window.toMs - 1) / DAY_MS);
  for (let utcDay = Math.floor(window.fromMs / DAY_MS); utcDay <= lastDay; utcDay++) {
    const start = utcDay * DAY_MS;
    const inside = midnights.filter((ms) => ms > start && ms < start + DAY_MS);
    if (inside.length > 1) return null;
    const split = inside[0] === undefined ? DAY_MS / QUARTER_MS : (inside[0] - start) / QUARTER_MS;
    const offset = midnights.filter((ms) => ms <= start).length - 1 - utcDay;
    const last = runs.at(-1);
    if (last && last.split === split && last.offset === offset) last.to = utcDay + 1;
    else runs.push({ from: utcDay, to: utcDay + 1, split, offset });
  }
  return runs;
}
