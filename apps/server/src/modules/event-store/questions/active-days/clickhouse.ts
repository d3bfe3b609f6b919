import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { DEFAULT_TIME_ZONE } from '@polyflow/contracts/time-zone';
import { localDayRuns, previousPeriod, type TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { dayParts } from '../../clickhouse/day-parts.ts';
import { eventFilter, withCtes } from '../../clickhouse/event-filter.ts';
import { IN_RANGE, rangeParams } from '../../clickhouse/sql.ts';
import { idHash } from '../../clickhouse/user-quarters.ts';
import {
  localDaySql,
  type QuarterSql,
  quarterConditions,
  quarterPairs,
  runsOnQuarters,
} from '../../local-days.ts';
import { type ActiveDays, activeDaysOf, bothPeriods, DaysRow } from './question.ts';

type DayValues = { value: string; where: string };

/** Wallet-days: `wallet_days` (docs/decisions/031). */
const WALLETS: DayValues = {
  value: 'assumeNotNull(wallet_address)',
  where: 'wallet_address IS NOT NULL AND ',
};
/** User-days: `user_days` (ADR 026). */
const USERS: DayValues = { value: 'user_id', where: '' };

/** The distinct (UTC day, value) pairs of a range's partial days, from `events` ('' for none). */
function partialDaysOf(parts: ReturnType<typeof dayParts>, event: DayValues): string {
  if (!parts.partialDays) return '';
  return ` + (SELECT uniqExact(toDate(ts, 'UTC'), ${event.value}) FROM events
              WHERE project_id = {project:String} AND ${event.where}${parts.partialDays})`;
}

/**
 * Distinct (UTC day, value) pairs of a period's events: its whole days from a table kept per (project,
 * day, value), its partial days at the ends from `events` (a partly covered day counts the values of its
 * covered part). The parts cover different days, so their counts add up. The table's rows are counted
 * with FINAL, one per key however many parts hold it (on merged parts it reads only the key: 9 ms
 * against 60 ms for a distinct count of the largest project's 226,605 user-days of 30 days); the
 * events' pairs with a distinct count, which an event stored twice does not change. The wallet-days of
 * the period and of the one before it are counted in one FINAL pass over both periods' days (ADR 044):
 * one pass over 60 days took 27–30 ms where two of 30 days took 35–60 on chdb, the largest project's
 * `wallet_days` in three parts.
 */
function daysOfValues(range: TimeRange, previousRange: TimeRange) {
  const wallets = dayParts(range, 'wallets_');
  const previous = dayParts(previousRange, 'previous_');
  const users = dayParts(range, 'users_');
  const walletWholeDays = [wallets.wholeDays, previous.wholeDays].filter(Boolean);
  const walletDaysPass =
    walletWholeDays.length === 0
      ? '(SELECT 0 AS current, 0 AS previous)'
      : `(SELECT countIf(${wallets.wholeDays ?? 'false'}) AS current,
                 countIf(${previous.wholeDays ?? 'false'}) AS previous
            FROM wallet_days FINAL
           WHERE project_id = {project:String} AND (${walletWholeDays.join(' OR ')}))`;
  const userDays = users.wholeDays
    ? `(SELECT count() FROM user_days FINAL WHERE project_id = {project:String} AND ${users.wholeDays})`
    : '0';
  return {
    sql: `SELECT wallet_pass.current${partialDaysOf(wallets, WALLETS)} AS wallet_days,
            ${userDays}${partialDaysOf(users, USERS)} AS user_days,
            wallet_pass.previous${partialDaysOf(previous, WALLETS)} AS previous_wallet_days
       FROM ${walletDaysPass} AS wallet_pass`,
    params: { ...wallets.params, ...previous.params, ...users.params },
  };
}

/**
 * The filtered question (ADR 074): the derived tables keep no session, so a period's value-days are the
 * distinct (day of the project's zone, value) pairs of the events of its matching sessions, matched over its own range.
 */
async function filteredDays(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  timeZone: string,
  filters: AnalyticsFilters,
) {
  const filter = eventFilter(filters, range);
  const [row] = await clickhouse.rows(
    `${withCtes(filter.cte)}
     SELECT uniqExactIf(toDate32(ts, {zone:String}), wallet_address, wallet_address IS NOT NULL) AS wallet_days,
            uniqExact(toDate32(ts, {zone:String}), user_id) AS user_days,
            0 AS previous_wallet_days
       FROM events
      WHERE ${IN_RANGE}${filter.events}`,
    { ...rangeParams(projectId, range), ...filter.params, zone: timeZone },
    DaysRow,
  );
  return row;
}

const at = (name: string) => `fromUnixTimestamp64Milli({${name}:Int64}, 'UTC')`;

/** A period's conditions on the quarter-hour rows and on the events of its ends (`quarterConditions`). */
function periodParts(name: string, range: TimeRange, params: Params) {
  return quarterConditions(name, range, (key, ms) => {
    params[key] = ms;
    return at(key);
  });
}

/** This engine's spelling for `quarterPairs`. */
const QUARTER_SQL: QuarterSql = {
  epochMs: (column: string) => `toUnixTimestamp64Milli(${column})`,
  project: '{project:String}',
};

/**
 * Value-days of the local days of a zone other than UTC: each (local day, value) pair counted once per
 * period. The whole quarter-hours come from `wallet_quarters` and `user_quarters`, numbered by
 * `localDaySql` from their start (the same numbers as DuckDB's; a quarter-hour lies in one local day,
 * ADR 095); the partial quarter-hours at the periods' ends from the events. Ranges past `localDayRuns`'
 * limit (or a zone whose local midnights are off the quarter-hours) read all the events, their day told
 * by ClickHouse's own zone data.
 */
function zonedDays(current: TimeRange, previous: TimeRange, zone: string) {
  const runs = localDayRuns(bothPeriods(current, previous), zone);
  if (!runs || !runsOnQuarters(runs)) return zonedDaysOfEvents(current, previous, zone);
  const day = (ms: string) => localDaySql(runs, ms, (a, b) => `intDiv(${a}, ${b})`);
  const params: Params = {};
  const periods = {
    current: periodParts('current', current, params),
    previous: periodParts('previous', previous, params),
  };
  const wallets = quarterPairs(
    QUARTER_SQL,
    { name: 'wallet_quarters', value: 'wallet_hash' },
    { value: idHash('assumeNotNull(wallet_address)'), where: 'wallet_address IS NOT NULL AND ' },
    periods,
    day,
  );
  const users = quarterPairs(
    QUARTER_SQL,
    { name: 'user_quarters', value: 'user_hash' },
    { value: idHash('user_id'), where: '' },
    { current: periods.current },
    day,
  );
  return {
    // Grouped by day first, then each day's distinct ids by their stored 128-bit hashes (what `uniqExact`
    // of the text computes per row): a third of the CPU of one distinct count of the (day, text) pairs.
    sql: `SELECT w.wallet_days AS wallet_days, u.user_days AS user_days, w.previous_wallet_days AS previous_wallet_days
       FROM (SELECT sum(current) AS wallet_days, sum(previous) AS previous_wallet_days
               FROM (SELECT day, uniqExactIf(value, in_current) AS current, uniqExactIf(value, in_previous) AS previous
                       FROM (${wallets}) GROUP BY day)) AS w
      CROSS JOIN (SELECT sum(values) AS user_days
                    FROM (SELECT day, uniqExact(value) AS values FROM (${users}) GROUP BY day)) AS u`,
    params,
  };
}

/**
 * Value-days of the local days of a zone other than UTC, from the events of both periods: each event's
 * local day told by ClickHouse's zone data, the distinct (day, value) pairs counted per period (an event
 * stored twice changes no distinct count: no FINAL).
 */
function zonedDaysOfEvents(current: TimeRange, previous: TimeRange, zone: string) {
  const inCurrent = `(ts >= ${at('current_from')} AND ts < ${at('current_to')})`;
  const inPrevious = `(ts >= ${at('previous_from')} AND ts < ${at('previous_to')})`;
  return {
    sql: `SELECT uniqExactIf(day, assumeNotNull(wallet_address), in_current AND wallet_address IS NOT NULL) AS wallet_days,
            uniqExactIf(day, user_id, in_current) AS user_days,
            uniqExactIf(day, assumeNotNull(wallet_address), in_previous AND wallet_address IS NOT NULL) AS previous_wallet_days
       FROM (SELECT toDate32(ts, {zone:String}) AS day, wallet_address, user_id, ${inCurrent} AS in_current, ${inPrevious} AS in_previous
               FROM events
              WHERE project_id = {project:String} AND (${inCurrent} OR ${inPrevious}))`,
    params: {
      current_from: current.fromMs,
      current_to: current.toMs,
      previous_from: previous.fromMs,
      previous_to: previous.toMs,
      zone,
    } as Params,
  };
}

/**
 * Wallet-days and user-days in the range, and wallet-days in the period before it: the numerators of
 * the per-day averages, by UTC day or by the local days of `timeZone`.
 */
export async function activeDays(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  previousRange: TimeRange = previousPeriod(range),
  timeZone: string = DEFAULT_TIME_ZONE,
  filters?: AnalyticsFilters,
): Promise<ActiveDays> {
  if (filters && eventFilter(filters).cte) {
    const [current, previous] = await Promise.all([
      filteredDays(clickhouse, projectId, range, timeZone, filters),
      filteredDays(clickhouse, projectId, previousRange, timeZone, filters),
    ]);
    return activeDaysOf(current, {
      wallet_days: 0,
      user_days: 0,
      previous_wallet_days: previous?.wallet_days ?? 0,
    });
  }
  if (timeZone !== DEFAULT_TIME_ZONE) {
    const zoned = zonedDays(range, previousRange, timeZone);
    const [row] = await clickhouse.rows(zoned.sql, { project: projectId, ...zoned.params }, DaysRow);
    return activeDaysOf(row);
  }
  const days = daysOfValues(range, previousRange);
  const [row] = await clickhouse.rows(days.sql, { project: projectId, ...days.params }, DaysRow);
  return activeDaysOf(row);
}
