import type { AcquisitionFilters } from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../../reading/time-range.ts';
import type { Params } from './client.ts';
import { inWholeDays, rangeParts } from './day-parts.ts';
import { aggregatesOverEvents, type SessionAggregate } from './session-days.ts';

/**
 * The per-session figures the funnel, the attribution table and the filter options read
 * (docs/acquisition-and-incidents.md), "of the session's events in the range". A range's whole UTC days
 * are read from `session_days` (session-days.ts); the events of the partial days at its ends (at most
 * two days) are aggregated from `events` with the very same expressions; a session's rows fold with each
 * column's function (foldedSessionRows). Every aggregate is a minimum, a maximum or a set, so neither
 * side needs FINAL: an event stored twice changes none of them (docs/decisions/030).
 */

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
 * themselves never leave the part (folding them per session was most of a filtered question's cost).
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
    selects.push(`SELECT ${[
      'session_id',
      'user_id',
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
 * The rows of a range's partial days (`edges`, from rangeParts), aggregated from `events` as
 * `session_days` is (each column of `aggregates` named `m_<name>`, then the flags), a row per (session,
 * user) of each day: one SELECT for both ends (one read of `events`, and its aggregates analysed once,
 * where a SELECT per end cost a statement twice the planning, ADR 138). Their parameters are added to
 * `params`; no edge, no SELECT.
 */
export function partialDayParts(
  aggregates: readonly SessionAggregate[],
  edges: readonly [number, number][],
  params: Params,
  flags: readonly PartFlag[] = [],
): string[] {
  if (edges.length === 0) return [];
  const inEdge = edges.map(([from, to], index) => {
    params[`edge${index}_from`] = from;
    params[`edge${index}_to`] = to;
    return `(ts >= fromUnixTimestamp64Milli({edge${index}_from:Int64}, 'UTC')
                AND ts < fromUnixTimestamp64Milli({edge${index}_to:Int64}, 'UTC'))`;
  });
  // The end a row falls in: edges are apart (whole days between them), so the second starts the later.
  const end = edges.length > 1 ? ", ts >= fromUnixTimestamp64Milli({edge1_from:Int64}, 'UTC')" : '';
  return [
    `SELECT ${[
      'session_id',
      'user_id',
      aggregatesOverEvents(aggregates, 'm_'),
      ...flags.map((flag) => `${flag.overEvents} AS m_${flag.name}`),
    ]
      .filter(Boolean)
      .join(',\n               ')}
          FROM events
         WHERE project_id = {project:String}
           AND (${inEdge.join('\n             OR ')})
         GROUP BY session_id, user_id${end}`,
  ];
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
 * A range's rows grouped so that each (session, user) is counted once, in one read of its parts (ADR 043).
 * Nearly every key of a range is a single row of its parts (a session within one UTC day, its row
 * merged): such a row is its session, and a row that passes the filters on its own (each filter's flag
 * set on it) is a passing session. The few keys with more than one row (a session across midnight, a
 * day's rows not yet merged) are found first: `repeated_hashes` sorts a 64-bit hash of every row's
 * session id and keeps the hashes that occur twice (cheaper than grouping every key, ADR 039, and the
 * session id alone is one string to read and hash instead of two). Every row of such a session id is
 * then grouped by its text key (`folded_session`, the session id; NULL for every other row), so a hash
 * shared by two sessions, or a session id shared by two users, only folds their keys, exactly. A
 * question groups the rows of `FROM ${from}` (the rows that pass alone and every row of a repeated
 * session id) by its own columns, `user_id` and `folded_session`, and keeps a folded session when each
 * filter's flag is set on one of its rows (`passes`, over them). Parameters: `project`, and those
 * returned.
 */
export function foldedSessionRows(
  aggregates: readonly SessionAggregate[],
  filters: AcquisitionFilters,
  range: TimeRange,
): {
  repeatedSessions: string;
  from: string;
  foldedSession: string;
  passes: string;
  params: Params;
} {
  const { flags, params } = filterFlags(filters);
  const parts = sessionParts(aggregates, range, flags);
  // The same rows, their keys alone: which session ids repeat needs no aggregate (analysed once less).
  const keys = sessionParts([], range);
  const passesAlone = flags.map((flag) => `m_${flag.name} = 1`).join(' AND ');
  return {
    // Consecutive equal hashes of the sorted list: a hash of n rows comes n - 1 times, made distinct. A
    // scalar, looked up by transform (a hash table per block): an IN set of a subquery cost a statement
    // about 8 ms more to plan (ADR 138).
    repeatedSessions: `(SELECT arrayDistinct(arrayFilter((hash, next) -> hash = next, arrayPopBack(hashes), arrayPopFront(hashes)))
        FROM (SELECT arraySort(groupArray(${SESSION_KEY_HASH})) AS hashes FROM (${keys.sql}))
    ) AS repeated_hashes`,
    from: `(${parts.sql})${
      passesAlone
        ? `
       WHERE (${passesAlone}) OR isNotNull(folded_session)`
        : ''
    }`,
    foldedSession: `if(transform(${SESSION_KEY_HASH}, repeated_hashes, arrayMap(hash -> 1, repeated_hashes), 0) = 1, session_id, NULL)`,
    passes: flags.map((flag) => `max(m_${flag.name}) = 1`).join(' AND ') || '1',
    params: { ...params, ...parts.params },
  };
}

/**
 * Settings for a question over a range's rows: read them in more than one stream from a few granules
 * on. ClickHouse's defaults (about 160,000 rows and 240 MB per stream) read the largest project's 30
 * days of `session_days` (226,622 rows, about 20 MB of the columns asked) in one stream, so its second
 * core stayed idle; with these, two. Same CPU, less wall clock when a core is free (ADR 043).
 */
export const READ_RANGE_IN_PARALLEL = `SETTINGS merge_tree_min_rows_for_concurrent_read = 32768,
             merge_tree_min_bytes_for_concurrent_read = 1048576`;

/**
 * A row's session id as one number. One row's columns are its session's (a flag, a landing value, a set:
 * each row's set is already distinct, session-days.ts), so a row alone needs no fold.
 */
const SESSION_KEY_HASH = 'cityHash64(session_id)';
