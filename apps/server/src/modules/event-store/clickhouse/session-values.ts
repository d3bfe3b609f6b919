import type { AnalyticsFilterKey } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { DerivedRowsChange } from './aligned-tables.ts';
import { type ClickHouse, deleteRows, type Params } from './client.ts';
import { COPY_SPILL_BYTES } from './copy-spill.ts';
import { dayOfParam } from './session-days.ts';

/**
 * `session_values`: one row per (project, list, value, UTC day, session, user) for every value a
 * session's events of that day carried in the lists `session_days` keeps as sets (docs/decisions/101):
 * the Analytics filters on those lists find their sessions by reading only the rows of the values asked
 * (the table's order), instead of grouping every event of the range by session (ADR 086). Fed by a view
 * on `session_days`, so every row that reaches `session_days` (a load through its view on `events`, a
 * rebuild after a delete, the copy of a migration) reaches this table in the same statement, as
 * `user_value_sets` is (ADR 039). The session is its key (`events.session_key`, ADR 093: cityHash64 of the
 * session id), without its user (deletes find the rows through `session_days`). A ReplacingMergeTree on
 * every column: a row stored twice (a session-day split over loads, a load repeated, a rebuild) is the
 * same fact, which a set read does not count twice.
 */

/** The Analytics filters this table answers, and the `session_days` set each reads (its `list`). */
export const SESSION_VALUE_LISTS = {
  countries: 'countries',
  browsers: 'browsers',
  walletProviders: 'wallet_providers',
  sources: 'utm_sources',
  mediums: 'utm_mediums',
  campaigns: 'utm_campaigns',
} as const satisfies Partial<Record<AnalyticsFilterKey, string>>;

const SETS = Object.values(SESSION_VALUE_LISTS);

export const CREATE_SESSION_VALUES = `CREATE TABLE IF NOT EXISTS session_values (
  project_id String,
  list LowCardinality(String),
  value String,
  day Date,
  session_key UInt64
) ENGINE = ReplacingMergeTree
ORDER BY (project_id, list, value, day, session_key)`;

/** The rows of `session_values` for the `session_days` rows a SELECT reads (`where`: conditions on them). */
export const sessionValuesOfSessionDays = (where = '') =>
  `SELECT project_id, pair.1 AS list, pair.2 AS value, day, cityHash64(session_id) AS session_key
    FROM session_days
   ARRAY JOIN arrayConcat(${SETS.map((set) => `arrayMap(v -> ('${set}', v), ${set})`).join(', ')}) AS pair${
     where ? `\n   WHERE ${where}` : ''
   }`;

/**
 * Version 24: the table, the view that feeds it from `session_days`, then the rows of what
 * `session_days` holds, sorted by the key (a row reaching both meanwhile is a duplicate, the same fact).
 */
export const SESSION_VALUES_STATEMENTS = [
  CREATE_SESSION_VALUES,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS session_values_of_session_days TO session_values AS
${sessionValuesOfSessionDays()}`,
  `INSERT INTO session_values ${sessionValuesOfSessionDays()}
   ORDER BY project_id, list, value, day, session_key
SETTINGS max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];

/** The session-days of `session_days`' keys (session-days.ts sessionDayKeyParams) by day and session key. */
const IN_SESSION_DAY_KEYS = `project_id = {project:String}
     AND day >= toDate({keys_from:String}) AND day <= toDate({keys_to:String})
     AND has(arrayZip({key_days:Array(String)}, arrayMap(s -> cityHash64(s), {key_sessions:Array(String)})),
             (toString(day), session_key))`;

const SessionDayRow = z.object({ day: z.string(), session_id: z.string() });

/**
 * Before `session_days` is brought in line with a delete (derived-tables.ts alignSessionDays, with the
 * same change): the rows of the session-days it will delete go here first: a project's, the days before
 * retention's cut, or those of the session-days a user's or a wallet's events were in (a user's read from
 * `session_days` while it still holds them). Returns the parameters of the session-days to copy again
 * once `session_days` is in line (restoreSessionValues), or null.
 */
export async function dropSessionValues(
  clickhouse: ClickHouse,
  params: Params,
  change: DerivedRowsChange,
): Promise<Params | null> {
  if (change.kind === 'days') {
    const day = dayOfParam(change.beforeParam);
    await deleteRows(clickhouse, 'session_values', `project_id = {project:String} AND day <= ${day}`, params);
    return null;
  }
  if (change.kind === 'all' && change.walletDays === 'where') {
    // A project's delete (`where` names the project alone).
    await deleteRows(clickhouse, 'session_values', change.where, params);
    return null;
  }
  const sessionDays =
    change.kind === 'users'
      ? change.sessionDays
      : await clickhouse.rows(
          `SELECT DISTINCT toString(day) AS day, session_id FROM session_days WHERE ${change.where}`,
          params,
          SessionDayRow,
        );
  if (sessionDays.length === 0) return null;
  const days = sessionDays.map((key) => key.day).sort();
  const keys = {
    ...params,
    keys_from: days[0] as string,
    keys_to: days[days.length - 1] as string,
    key_days: sessionDays.map((key) => key.day),
    key_sessions: sessionDays.map((key) => key.session_id),
  };
  await deleteRows(clickhouse, 'session_values', IN_SESSION_DAY_KEYS, keys);
  return keys;
}

/**
 * After: what `session_days` holds of the session-days whose rows went (any user's: a session id two
 * users share lost both users' rows), copied again; rows `session_days` was given again also reached this
 * table through its view, the same facts.
 */
export async function restoreSessionValues(clickhouse: ClickHouse, keys: Params | null): Promise<void> {
  if (!keys) return;
  await clickhouse.command(
    `INSERT INTO session_values ${sessionValuesOfSessionDays(
      IN_SESSION_DAY_KEYS.replace('(toString(day), session_key)', '(toString(day), cityHash64(session_id))'),
    )}`,
    keys,
  );
}
