import { type AnalyticsFilters, hasAnalyticsFilters } from '@polyflow/contracts/analytics';
import { DEFAULT_TIME_ZONE } from '@polyflow/contracts/time-zone';
import { localDayRuns, previousPeriod, type TimeRange, utcDayParts } from '../../../../reading/time-range.ts';
import { inTransaction } from '../../duckdb/derived-tables.ts';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import { type Connection, IN_RANGE, type Params, rangeParams, rowsOf } from '../../duckdb/sql.ts';
import { idHash } from '../../duckdb/user-quarters.ts';
import {
  localDaySql,
  type QuarterSql,
  quarterConditions,
  quarterPairs,
  runsOnQuarters,
} from '../../local-days.ts';
import { type ActiveDays, activeDaysOf, bothPeriods, DaysRow } from './question.ts';

const at = (name: string) => `make_timestamp($${name}::BIGINT * 1000)`;
const isEmpty = (range: TimeRange) => range.fromMs >= range.toMs;

/** Value-days of the whole days of both periods: rows of the derived `user_days`/`wallet_active_days` (ADR 005). */
async function wholeDays(connection: Connection, projectId: string, current: TimeRange, previous: TimeRange) {
  const params: Params = {
    project: projectId,
    current_from: BigInt(current.fromMs),
    current_to: BigInt(current.toMs),
    previous_from: BigInt(previous.fromMs),
    previous_to: BigInt(previous.toMs),
  };
  const inPeriod = (period: string) =>
    `day >= ${at(`${period}_from`)}::DATE AND day < ${at(`${period}_to`)}::DATE`;
  const [row] = await rowsOf(
    connection,
    `SELECT (SELECT count(*) FROM user_days WHERE project_id = $project AND ${inPeriod('current')})::DOUBLE AS user_days,
            count(*) FILTER (WHERE ${inPeriod('current')})::DOUBLE AS wallet_days,
            count(*) FILTER (WHERE ${inPeriod('previous')})::DOUBLE AS previous_wallet_days
       FROM wallet_active_days
      WHERE project_id = $project AND day >= ${at('previous_from')}::DATE AND day < ${at('current_to')}::DATE`,
    params,
    DaysRow,
  );
  return row;
}

/**
 * Value-days of the partly covered days at the ends of both periods, from the events: each piece lies
 * within one day, so its distinct values are its value-days. Nothing to read when both periods start and
 * end at midnight.
 */
async function partialDays(connection: Connection, projectId: string, pieces: [string, TimeRange][]) {
  if (pieces.length === 0) return undefined;
  const params: Params = { project: projectId };
  const scans = pieces.map(([period, piece], index) => {
    params[`piece_${index}_from`] = BigInt(piece.fromMs);
    params[`piece_${index}_to`] = BigInt(piece.toMs);
    return `SELECT '${period}' AS period, count(DISTINCT wallet_address) AS wallets, count(DISTINCT user_id) AS users
              FROM events
             WHERE project_id = $project AND ts >= ${at(`piece_${index}_from`)} AND ts < ${at(`piece_${index}_to`)}`;
  });
  const [row] = await rowsOf(
    connection,
    `SELECT coalesce(sum(wallets) FILTER (WHERE period = 'current'), 0)::DOUBLE AS wallet_days,
            coalesce(sum(users) FILTER (WHERE period = 'current'), 0)::DOUBLE AS user_days,
            coalesce(sum(wallets) FILTER (WHERE period = 'previous'), 0)::DOUBLE AS previous_wallet_days
       FROM (${scans.join('\n UNION ALL ')})`,
    params,
    DaysRow,
  );
  return row;
}

/**
 * The filtered question (ADR 074): the derived tables keep no session, so each period's value-days are
 * the distinct (day of the project's zone, value) pairs of the events of its matching sessions, each period matched over
 * its own range.
 */
/** An event's day in the zone `$zone` (the stored time read as UTC). */
const DAY = `CAST(timezone($zone, timezone('UTC', ts)) AS DATE)`;

async function filteredDays(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  timeZone: string,
  filters: AnalyticsFilters,
) {
  const filter = await eventFilter(connection, projectId, range, filters);
  const [row] = await rowsOf(
    connection,
    `${withCtes(filter.cte)}
     SELECT count(DISTINCT (${DAY}, wallet_address)) FILTER (WHERE wallet_address IS NOT NULL)::DOUBLE AS wallet_days,
            count(DISTINCT (${DAY}, user_id))::DOUBLE AS user_days,
            0::DOUBLE AS previous_wallet_days
       FROM events
      WHERE ${IN_RANGE}${filter.events}`,
    { ...rangeParams(projectId, range), ...filter.params, zone: timeZone },
    DaysRow,
  );
  return row;
}

/** A period's conditions on the quarter-hour rows and on the events of its ends (`quarterConditions`). */
function periodParts(name: string, range: TimeRange, params: Params) {
  return quarterConditions(name, range, (key, ms) => {
    params[key] = BigInt(ms);
    return at(key);
  });
}

/** This engine's spelling for `quarterPairs`. */
const QUARTER_SQL: QuarterSql = { epochMs: (column: string) => `epoch_ms(${column})`, project: '$project' };

/**
 * Value-days of the local days of a zone other than UTC: each (local day, value) pair counted once per
 * period. The whole quarter-hours come from `wallet_quarters` and `user_quarters`, numbered by
 * `localDaySql` from their start (a quarter-hour lies in one local day, ADR 095); the partial
 * quarter-hours at the periods' ends from the events. Ranges past `localDayRuns`' limit (or a zone whose
 * local midnights are off the quarter-hours) read all the events, their day told by DuckDB's ICU.
 */
async function zonedDays(
  connection: Connection,
  projectId: string,
  current: TimeRange,
  previous: TimeRange,
  zone: string,
) {
  const runs = localDayRuns(bothPeriods(current, previous), zone);
  if (!runs || !runsOnQuarters(runs))
    return zonedDaysOfEvents(connection, projectId, current, previous, zone);
  const day = (ms: string) => localDaySql(runs, ms, (a, b) => `${a} // ${b}`);
  const params: Params = { project: projectId };
  const periods = {
    current: periodParts('current', current, params),
    previous: periodParts('previous', previous, params),
  };
  const wallets = quarterPairs(
    QUARTER_SQL,
    { name: 'wallet_quarters', value: 'wallet_hash' },
    { value: idHash('wallet_address'), where: 'wallet_address IS NOT NULL AND ' },
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
  const [row] = await rowsOf(
    connection,
    // One grouping of the (day, value) pairs for both periods: less CPU than a distinct count per period.
    `SELECT w.wallet_days, u.user_days, w.previous_wallet_days
       FROM (SELECT count(*) FILTER (WHERE in_current)::DOUBLE AS wallet_days,
                    count(*) FILTER (WHERE in_previous)::DOUBLE AS previous_wallet_days
               FROM (SELECT bool_or(in_current) AS in_current, bool_or(in_previous) AS in_previous
                       FROM (${wallets}) GROUP BY day, value)) w,
            (SELECT count(DISTINCT (day, value))::DOUBLE AS user_days FROM (${users})) u`,
    params,
    DaysRow,
  );
  return row;
}

/**
 * Value-days of the local days of a zone other than UTC, from the events of both periods: each event's
 * local day told by DuckDB's ICU, the distinct (day, value) pairs counted per period.
 */
async function zonedDaysOfEvents(
  connection: Connection,
  projectId: string,
  current: TimeRange,
  previous: TimeRange,
  zone: string,
) {
  const day = `CAST(timezone($zone, timezone('UTC', ts)) AS DATE)`;
  const inCurrent = `ts >= ${at('current_from')} AND ts < ${at('current_to')}`;
  const inPrevious = `ts >= ${at('previous_from')} AND ts < ${at('previous_to')}`;
  const [row] = await rowsOf(
    connection,
    `SELECT count(DISTINCT (day, wallet_address)) FILTER (WHERE in_current AND wallet_address IS NOT NULL)::DOUBLE AS wallet_days,
            count(DISTINCT (day, user_id)) FILTER (WHERE in_current AND user_id IS NOT NULL)::DOUBLE AS user_days,
            count(DISTINCT (day, wallet_address)) FILTER (WHERE in_previous AND wallet_address IS NOT NULL)::DOUBLE AS previous_wallet_days
       FROM (SELECT ${day} AS day, wallet_address, user_id, ${inCurrent} AS in_current, ${inPrevious} AS in_previous
               FROM events
              WHERE project_id = $project AND ((${inCurrent}) OR (${inPrevious})))`,
    {
      project: projectId,
      current_from: BigInt(current.fromMs),
      current_to: BigInt(current.toMs),
      previous_from: BigInt(previous.fromMs),
      previous_to: BigInt(previous.toMs),
      zone,
    },
    DaysRow,
  );
  return row;
}

/**
 * Wallet-days and user-days in the range, and wallet-days in the period before it: the numerators of
 * the per-day averages. Whole days and partly covered ones are read in one transaction (one snapshot).
 */
export async function activeDays(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  previousRange: TimeRange = previousPeriod(range),
  timeZone: string = DEFAULT_TIME_ZONE,
  filters?: AnalyticsFilters,
): Promise<ActiveDays> {
  if (filters && hasAnalyticsFilters(filters)) {
    const [current, previous] = await inTransaction(connection, async () => [
      await filteredDays(connection, projectId, range, timeZone, filters),
      await filteredDays(connection, projectId, previousRange, timeZone, filters),
    ]);
    return activeDaysOf(current, {
      wallet_days: 0,
      user_days: 0,
      previous_wallet_days: previous?.wallet_days ?? 0,
    });
  }
  if (timeZone !== DEFAULT_TIME_ZONE) {
    return activeDaysOf(await zonedDays(connection, projectId, range, previousRange, timeZone));
  }
  const current = utcDayParts(range);
  const previous = utcDayParts(previousRange);
  const pieces = (
    [
      ['current', current.before],
      ['current', current.after],
      ['previous', previous.before],
      ['previous', previous.after],
    ] as [string, TimeRange][]
  ).filter(([, piece]) => !isEmpty(piece));
  const [whole, partial] = await inTransaction(connection, async () => [
    await wholeDays(connection, projectId, current.days, previous.days),
    await partialDays(connection, projectId, pieces),
  ]);
  return activeDaysOf(whole, partial);
}
