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

/** A UTC quarter-hour in milliseconds: the grain of `wallet_quarters` and `user_quarters` (ADR 087, 095). */
export const QUARTER_MS = 900_000;

/**
 * Whether every local midnight the runs name falls on a UTC quarter-hour (every zone's offset since 1972
 * is a whole number of quarter-hours): then each quarter-hour lies in one local day, and a local day's
 * values are those of the quarter-hour rows numbered by their start.
 */
export const runsOnQuarters = (runs: readonly LocalDayRun[]) =>
  runs.every((run) => ((run.startMs % QUARTER_MS) + QUARTER_MS) % QUARTER_MS === 0);

/**
 * A range split at UTC quarter-hours: its whole quarter-hours (`quarters`, start and end on quarter-hours;
 * null when it holds none), read from the per-quarter-hour tables, and what lies outside them at its ends
 * (`pieces`, less than a quarter-hour each), read from the events (each event numbered by its own time).
 */
export function quarterParts(range: TimeRange): { quarters: TimeRange | null; pieces: TimeRange[] } {
  if (range.fromMs >= range.toMs) return { quarters: null, pieces: [] };
  const first = Math.ceil(range.fromMs / QUARTER_MS) * QUARTER_MS;
  const last = Math.floor(range.toMs / QUARTER_MS) * QUARTER_MS;
  if (first >= last) return { quarters: null, pieces: [range] };
  const pieces = [
    { fromMs: range.fromMs, toMs: first },
    { fromMs: last, toMs: range.toMs },
  ].filter((piece) => piece.fromMs < piece.toMs);
  return { quarters: { fromMs: first, toMs: last }, pieces };
}

/**
 * A period's conditions on the quarter-hour rows (`quarter`) and on the events of its ends (`ts`), split by
 * `quarterParts`; `bound(key, ms)` keeps an instant as a parameter and gives the engine's SQL that reads it.
 */
export function quarterConditions(
  name: string,
  range: TimeRange,
  bound: (key: string, ms: number) => string,
): { quarters: string; events: string } {
  const { quarters, pieces } = quarterParts(range);
  const between = (column: string, key: string, part: TimeRange) =>
    `(${column} >= ${bound(`${key}_from`, part.fromMs)} AND ${column} < ${bound(`${key}_to`, part.toMs)})`;
  return {
    quarters: quarters ? between('quarter', `${name}_q`, quarters) : 'false',
    events: pieces.length
      ? `(${pieces.map((piece, i) => between('ts', `${name}_p${i}`, piece)).join(' OR ')})`
      : 'false',
  };
}

/** What `quarterPairs` needs spelled per engine: a timestamp column's epoch milliseconds, the project parameter. */
export interface QuarterSql {
  epochMs: (column: string) => string;
  project: string;
}

/** A period's conditions on the quarter-hour rows and on the events of its ends (`quarterConditions`). */
export type PeriodConditions = { quarters: string; events: string };

/**
 * The (local day, value) pairs of both periods' whole quarter-hours, from a table kept per (project, UTC
 * quarter-hour, value) (ADR 087, 095; a duplicate row changes no distinct count), and of the events of
 * their ends, with the period each lies in. `day(ms)`: the local day of a time in ms. One query text for
 * both engines; `sql` gives each engine's spelling.
 */
export function quarterPairs(
  sql: QuarterSql,
  table: { name: string; value: string },
  event: { value: string; where: string },
  periods: { current: PeriodConditions; previous?: PeriodConditions },
  day: (ms: string) => string,
): string {
  const { current, previous = { quarters: 'false', events: 'false' } } = periods;
  const fromTable = `SELECT ${day(sql.epochMs('quarter'))} AS day, ${table.value} AS value,
                            ${current.quarters} AS in_current, ${previous.quarters} AS in_previous
                       FROM ${table.name}
                      WHERE project_id = ${sql.project} AND (${current.quarters} OR ${previous.quarters})`;
  if (current.events === 'false' && previous.events === 'false') return fromTable;
  return `${fromTable}
          UNION ALL
          SELECT ${day(sql.epochMs('ts'))} AS day, ${event.value} AS value,
                 ${current.events} AS in_current, ${previous.events} AS in_previous
            FROM events
           WHERE project_id = ${sql.project} AND ${event.where}(${current.events} OR ${previous.events})`;
}
