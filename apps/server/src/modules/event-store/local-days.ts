import { DEFAULT_TIME_ZONE, localDate } from '@polyflow/contracts/time-zone';
import { DAY_MS, type LocalDayRun, localDayRuns, type TimeRange } from '../../reading/time-range.ts';

/**
 * The local day (0, 1, … from the range's first, `localDayRuns`) of the time whose UTC milliseconds
 * `ms` is, as one SQL expression: a CASE over the runs, whole days elapsed within a run of 24-hour days.
 * `div` is the engine's integer division (the operand is never negative). The runs' numbers are
 * computed here, not given by a caller, and written as integer literals.
 */
export function localDaySql(runs: readonly LocalDayRun[], ms: string, div: (a: string, b: string) => string) {
  const literal = (value: number) => {
    if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
    return String(value);
  };
  const dayOf = (run: LocalDayRun) =>
    run.regular
      ? `(${literal(run.index)} + ${div(`(${ms} - ${literal(run.startMs)})`, literal(DAY_MS))})`
      : literal(run.index);
  const [first, ...rest] = runs;
  if (!first) throw new Error('a range has at least one local day');
  if (rest.length === 0) return dayOf(first);
  const branches = runs
    .slice(0, -1)
    .map((run, i) => `WHEN ${ms} < ${literal(runs[i + 1]?.startMs ?? 0)} THEN ${dayOf(run)}`);
  return `(CASE ${branches.join(' ')} ELSE ${dayOf(runs.at(-1) as LocalDayRun)} END)`;
}

/**
 * A per-day column of a question: the UTC day in a UTC project, else the local day's number
 * (`localDaySql`), turned back into the local date (`YYYY-MM-DD`) by `dateOf`. Null when the range is
 * past `localDayRuns`' limit (callers keep their ranges within it).
 */
export function localDateColumn(
  range: TimeRange,
  zone: string | undefined,
  ms: string,
  div: (a: string, b: string) => string,
): { sql: string; dateOf: (value: string) => string } | null {
  if (!zone || zone === DEFAULT_TIME_ZONE) return null;
  const runs = localDayRuns(range, zone);
  if (!runs) throw new Error('a range longer than localDayRuns numbers');
  const first = Date.parse(localDate(range.fromMs, zone));
  return {
    sql: localDaySql(runs, ms, div),
    dateOf: (value) => new Date(first + Number(value) * DAY_MS).toISOString().slice(0, 10),
  };
}
