import type { AcquisitionFilters } from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../../reading/time-range.ts';
import type { Params } from './client.ts';
import { inWholeDays, rangeParts } from './day-parts.ts';
import { aggregatesOverEvents, fold, type SessionAggregate } from './session-days.ts';

/**
 * The per-session figures the funnel, the attribution table and the filter options read
 * (docs/acquisition-and-incidents.md), "of the session's events in the range". A range's whole UTC days
 * are read from `session_days` (session-days.ts); the events of the partial days at its ends (at most
 * two days) are aggregated from `events` with the very same expressions; both fold into one row per
 * (session, user) with each column's function. Every aggregate is a minimum, a maximum or a set, so
 * neither side needs FINAL: an event stored twice changes none of them (docs/decisions/030).
 */

/** A session figure a question may read, and the stored aggregate it comes from. */
const SESSION_COLUMNS = {
  has_wallet: ['has_wallet', (folded: string) => folded],
  has_connected: ['has_connected', (folded: string) => folded],
  has_signed: ['has_signed', (folded: string) => folded],
  /** The session's submitted transactions (distinct ids). */
  submitted_txs: ['submitted_txs', (folded: string) => folded],
  submitted_count: ['submitted_txs', (folded: string) => `length(${folded})`],
  connects: ['connect_ids', (folded: string) => `length(${folded})`],
  landing_campaign: ['landing_campaign', (folded: string) => folded],
  landing_source: ['landing_source', (folded: string) => folded],
  landing_medium: ['landing_medium', (folded: string) => folded],
  landing_content: ['landing_content', (folded: string) => folded],
  landing_term: ['landing_term', (folded: string) => folded],
} as const satisfies Record<string, readonly [SessionAggregate, (folded: string) => string]>;
export type SessionColumn = keyof typeof SESSION_COLUMNS;

/**
 * Each filter's set of a session's values in `session_days`, and its events column. UTM sets hold the
 * session's landing UTM (on every event).
 */
const FILTER_SETS: Record<keyof AcquisitionFilters, readonly [SessionAggregate, string]> = {
  countries: ['countries', 'country'],
  terms: ['utm_terms', 'utm_term'],
  sources: ['utm_sources', 'utm_source'],
  mediums: ['utm_mediums', 'utm_medium'],
  campaigns: ['utm_campaigns', 'utm_campaign'],
  contents: ['utm_contents', 'utm_content'],
  browsers: ['browsers', 'browser'],
  walletProviders: ['wallet_providers', 'wallet_provider'],
};

/**
 * A flag per row of a part: whether its set (a stored row) or one of its events (a partial day) holds
 * one of a filter's values. A session passes when one of its rows does (folded with max): the sets
 * themselves never leave the part (folding them per session was most of a filtered question's cost), and
 * only rows with a flag are folded at all (matchingSessionParts).
 */
export type PartFlag = { name: string; stored: string; overEvents: string };

/**
 * The rows of a range, one or more per (session, user), each column of `aggregates` named `m_<name>`:
 * a UNION ALL of `session_days`' whole days and the partial days' events. Parameters: `project`, and
 * those returned.
 */
export function sessionParts(
  aggregates: readonly SessionAggregate[],
  range: TimeRange,
  flags: readonly PartFlag[] = [],
): { sql: string; params: Params } {
  const parts = rangeParts(range);
  const params: Params = { ...parts.params };
  const selects: string[] = [];
  if (parts.days)
    selects.push(`SELECT session_id, user_id, ${[
      ...aggregates.map((name) => `${name} AS m_${name}`),
      ...flags.map((flag) => `${flag.stored} AS m_${flag.name}`),
    ].join(', ')}
          FROM session_days
         WHERE project_id = {project:String}
           AND ${inWholeDays()}`);
  selects.push(...partialDayParts(aggregates, parts.edges, params, flags));
  return { sql: selects.join('\n        UNION ALL\n        '), params };
}

/**
 * The rows of a range's partial days (`edges`, from rangeParts), one SELECT per day, aggregated from
 * `events` as `session_days` is (each column of `aggregates` named `m_<name>`, then the flags); their
 * parameters are added to `params`.
 */
export function partialDayParts(
  aggregates: readonly SessionAggregate[],
  edges: readonly [number, number][],
  params: Params,
  flags: readonly PartFlag[] = [],
): string[] {
  return edges.map(([from, to], index) => {
    params[`edge${index}_from`] = from;
    params[`edge${index}_to`] = to;
    return `SELECT session_id, user_id,
               ${[aggregatesOverEvents(aggregates, 'm_'), ...flags.map((flag) => `${flag.overEvents} AS m_${flag.name}`)].filter(Boolean).join(',\n               ')}
          FROM events
         WHERE project_id = {project:String}
           AND ts >= fromUnixTimestamp64Milli({edge${index}_from:Int64}, 'UTC')
           AND ts < fromUnixTimestamp64Milli({edge${index}_to:Int64}, 'UTC')
         GROUP BY session_id, user_id`;
  });
}

/** A flag per filter with values (PartFlag), and the filters' values as parameters `filter_<key>`. */
function filterFlags(filters: AcquisitionFilters): { flags: PartFlag[]; params: Params } {
  const params: Params = {};
  const flags: PartFlag[] = [];
  for (const [key, [set, column]] of Object.entries(FILTER_SETS) as [
    keyof AcquisitionFilters,
    readonly [SessionAggregate, string],
  ][]) {
    const values = filters[key];
    if (!values || values.length === 0) continue;
    const param = `{filter_${key}:Array(String)}`;
    params[`filter_${key}`] = [...values];
    flags.push({
      name: `filter_${key}`,
      stored: `hasAny(${set}, ${param})`,
      overEvents: `max(has(${param}, ${column}))`,
    });
  }
  return { flags, params };
}

/**
 * The rows of a range (sessionParts) of the sessions that pass every filter: for each filter, one of the
 * session's rows holds one of its values. Unfiltered, every row. Filtered, the passing (session, user)
 * keys are found first from the rows that hold a filter value at all (a session without one fails), and
 * the parts are read again for those keys alone: a set lookup per row is far cheaper than folding every
 * session of the range with its flags (ADR 036). Parameters: `project`, and those returned.
 */
export function matchingSessionParts(
  aggregates: readonly SessionAggregate[],
  filters: AcquisitionFilters,
  range: TimeRange,
): { sql: string; params: Params } {
  const { flags, params } = filterFlags(filters);
  const parts = sessionParts(aggregates, range);
  if (flags.length === 0) return parts;
  const flagged = sessionParts([], range, flags);
  const anyFlag = flags.map((flag) => `m_${flag.name} = 1`).join(' OR ');
  const everyFlag = flags.map((flag) => `max(m_${flag.name}) = 1`).join(' AND ');
  return {
    sql: `SELECT *
          FROM (${parts.sql})
         WHERE (session_id, user_id) IN (
               SELECT session_id, user_id
                 FROM (${flagged.sql})
                WHERE ${anyFlag}
                GROUP BY session_id, user_id
               HAVING ${everyFlag})`,
    params: { ...params, ...parts.params, ...flagged.params },
  };
}

/**
 * `session_rows`: the sessions of [from, to) that pass every filter set (for each filter, one of its
 * events in the range carries one of the selected values), as signed rows of `session_id`, `user_id`,
 * the asked columns and `sign` (1 or -1): a session's figures are the sum of its rows' weighted by
 * `sign`, so a question sums `sign` (to count sessions) and `sign` times each figure, and leaves out any
 * group whose `sign`s sum to 0 (it holds no session). Parameters: `project`, and those returned.
 *
 * Nearly every (session, user) of a range is one row of its parts (a session within one UTC day, its row
 * merged), so folding every key by `GROUP BY session_id, user_id` paid a hash aggregation of all of them
 * for the few that need it (ADR 039). Instead, every row of the parts that passes the filters on its own
 * (each filter's flag set) counts as a session (sign 1: a flag, a landing value and a set of one row are
 * its session's, each row's set being distinct already, session-days.ts). The keys with more than one
 * row are then corrected: found by a 64-bit hash of the key (`repeated_sessions`, a far cheaper grouping
 * than the text key), their rows are folded by the text key; each such session takes back its rows that
 * counted (sign -1) and adds its folded row (sign 1) when its rows together pass every filter. A hash
 * shared by two keys only sends both to that fold, which separates them: the sums stay exact. Filtered,
 * this spares the grouping of every row holding some filter value by the text key (matchingSessionParts,
 * which the funnel keeps).
 */
export function sessionRowsCte(
  columns: readonly SessionColumn[],
  filters: AcquisitionFilters,
  range: TimeRange,
): { sql: string; params: Params } {
  const aggregates = new Set<SessionAggregate>(columns.map((column) => SESSION_COLUMNS[column][0]));
  const { flags, params } = filterFlags(filters);
  const parts = sessionParts([...aggregates], range, flags);
  const expressions = (of: (aggregate: SessionAggregate, column: string) => string) =>
    columns.map((column) => {
      const [aggregate, summary] = SESSION_COLUMNS[column];
      return summary(of(aggregate, `m_${aggregate}`));
    });
  const asRow = expressions((_aggregate, column) => column);
  const passesAlone = flags.map((flag) => `m_${flag.name} = 1`).join(' AND ') || '1';
  const passesFolded = flags.map((flag) => `max(m_${flag.name}) = 1`).join(' AND ') || '1';
  const folded = `[(${[...expressions(fold), 'toInt8(1)'].join(', ')})]`;
  const takenBack = `groupArrayIf((${[...asRow, 'toInt8(-1)'].join(', ')}), ${passesAlone})`;
  const fromChange = columns.map((column, index) => `change.${index + 1} AS ${column}`);
  return {
    sql: `repeated_sessions AS (
      SELECT ${SESSION_KEY_HASH} AS key_hash
        FROM (${parts.sql})
       GROUP BY key_hash
      HAVING count() > 1
    ),
    session_rows AS (
      SELECT session_id, user_id,
             ${asRow.map((value, index) => `${value} AS ${columns[index]}`).join(',\n             ')},
             toInt8(1) AS sign
        FROM (${parts.sql})
       WHERE ${passesAlone}
      UNION ALL
      SELECT session_id, user_id,
             ${fromChange.join(',\n             ')},
             change.${columns.length + 1} AS sign
        -- arraySlice(…, 1, 0) is empty: the folded row only when the session passes.
        FROM (SELECT session_id, user_id,
                     arrayConcat(arraySlice(${folded}, 1, ${passesFolded}), ${takenBack}) AS changes
                FROM (${parts.sql})
               WHERE ${SESSION_KEY_HASH} IN repeated_sessions
               GROUP BY session_id, user_id)
       ARRAY JOIN changes AS change
    )`,
    params: { ...params, ...parts.params },
  };
}

/**
 * A (session, user) key as one number. One row's columns are its session's (a flag, a landing value, a
 * set: each row's set is already distinct, session-days.ts), so a row alone needs no fold.
 */
const SESSION_KEY_HASH = 'cityHash64(session_id, user_id)';
