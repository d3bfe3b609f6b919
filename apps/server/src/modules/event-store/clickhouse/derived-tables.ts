import {
  alignContractDays,
  alignTransactionDays,
  alignTransactionReceipts,
  alignUserLives,
  alignWalletDays,
  alignWalletFirsts,
  alignWalletListTransactions,
  type DerivedRowsChange,
} from './aligned-tables.ts';
import { alignWalletQuarters } from './wallet-quarters.ts';

export type { DerivedRowsChange } from './aligned-tables.ts';

import { type ClickHouse, deleteRows, type Params } from './client.ts';
import { alignIncidentLives } from './incident-lives.ts';
import {
  dayOfParam,
  EVENTS_IN_KEYS,
  eventsOnDayOf,
  IN_KEYS,
  sessionDayKeyParams,
  sessionDaysOfEvents,
  userValueSetsOfSessionDays,
} from './session-days.ts';
import { dropSessionValues, restoreSessionValues } from './session-values.ts';
import { alignUserDayPaths } from './user-day-paths.ts';
import { alignUserDays } from './user-days.ts';
import { alignUserQuarters } from './user-quarters.ts';
import { alignWalletListDays } from './wallet-list-days.ts';

/**
 * What ClickHouse keeps beside `events` for the questions that read a small part of a project's history
 * (docs/decisions/026-clickhouse-derived-tables.md). Each table is filled by a materialized view on
 * `events`, so every insert into `events` feeds it in the same statement: a segment's load (through
 * `incoming_rows`' view), a copy file, the bench's load. Each is idempotent under a load repeated: the
 * subsets are ReplacingMergeTrees on the events' own key, read with FINAL like `events`; `user_days` is
 * only ever read through distinct counts, which a row stored twice does not change.
 */

/** Same columns and key as `events` (schema.ts builds the statement): a subset of its rows. */
export type EventSubset = { table: string; where: string };

/** Every error event: the incident questions read these alone (a few per cent of a project's events). */
export const ERROR_SUBSET: EventSubset = { table: 'error_events', where: "type = 'error'" };
/** The failed and reverted stages of transactions: what an incident's "failed transactions" joins with. */
export const FAILED_TX_SUBSET: EventSubset = {
  table: 'failed_transactions',
  where: "type = 'tx' AND ifNull(tx_stage IN ('failed', 'reverted'), 0)",
};
/** Every wallet connection: attribution's "+ Wallets" finds each wallet's first one over all time. */
export const CONNECTION_SUBSET: EventSubset = {
  table: 'wallet_connections',
  where: "type = 'wallet_connected'",
};
export const EVENT_SUBSETS = [ERROR_SUBSET, FAILED_TX_SUBSET, CONNECTION_SUBSET] as const;

/** The subsets as the questions read them: FINAL, as for `events` (sql.ts). */
export const ERROR_EVENTS = `${ERROR_SUBSET.table} FINAL`;
export const FAILED_TRANSACTIONS = `${FAILED_TX_SUBSET.table} FINAL`;
export const WALLET_CONNECTIONS = `${CONNECTION_SUBSET.table} FINAL`;

/**
 * The statements that create one subset beside `events`: its table (`tableStatement`, from schema.ts),
 * the view that feeds it, then the rows already stored. The view comes first, so an event loaded while
 * the schema migrates reaches the subset through the view, the copy, or both (a duplicate, which FINAL
 * and merges collapse); a migration repeated after a failure copies again, harmlessly.
 */
export function subsetStatements(subset: EventSubset, tableStatement: string): string[] {
  return [
    tableStatement,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${subset.table}_of_events TO ${subset.table} AS
SELECT * FROM events WHERE ${subset.where}`,
    `INSERT INTO ${subset.table} SELECT * FROM events WHERE ${subset.where}`,
  ];
}

/**
 * After a delete of events (`where` with `params`): the same rows out of every subset, of
 * `transaction_keys`, `custom_events`, `wallet_events`, `session_events` and `funnel_events`, and `user_days`, `user_day_paths`, `session_days` (with `session_values`, then `user_value_sets`), `wallet_days` (then `wallet_firsts`), `wallet_quarters`, `wallet_list_days`, `user_quarters`,
 * `user_lives`, `transaction_days`, `contract_days`, `wallet_list_transactions`, `wallet_sent_transactions`, `transaction_receipts` and `incident_lives` brought in line with the events
 * that stay.
 * Runs in the writer's queue, after the events' DELETE.
 */
export async function deleteDerivedRows(
  clickhouse: ClickHouse,
  where: string,
  params: Params,
  change: DerivedRowsChange,
): Promise<void> {
  for (const table of [
    ...EVENT_SUBSETS.map((subset) => subset.table),
    'transaction_keys',
    'custom_events',
    'wallet_events',
    'session_events',
    'funnel_events',
  ])
    await deleteRows(clickhouse, table, where, params);
  await alignUserDays(clickhouse, params, change);
  await alignUserDayPaths(clickhouse, params, change);
  await alignUserQuarters(clickhouse, params, change);
  await alignSessionDays(clickhouse, params, change);
  await alignUserValueSets(clickhouse, params, change);
  await alignWalletDays(clickhouse, params, change);
  await alignWalletFirsts(clickhouse, params, change);
  await alignWalletQuarters(clickhouse, params, change);
  await alignWalletListDays(clickhouse, params, change);
  await alignUserLives(clickhouse, params, change);
  await alignTransactionDays(clickhouse, params, change);
  await alignContractDays(clickhouse, params, change);
  await alignWalletListTransactions(clickhouse, params, change);
  await alignTransactionReceipts(clickhouse, params, change);
  await alignIncidentLives(clickhouse, params);
}

async function alignSessionDays(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  // `session_values` (fed by a view on `session_days`) loses the same session-days first, while
  // `session_days` still tells which, and gets them again once it is in line (session-values.ts).
  const dropped = await dropSessionValues(clickhouse, params, change);
  await alignSessionDayRows(clickhouse, params, change);
  await restoreSessionValues(clickhouse, dropped);
}

async function alignSessionDayRows(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  if (change.kind === 'all') {
    await deleteRows(clickhouse, 'session_days', change.where, params);
    return;
  }
  if (change.kind === 'days') {
    const day = dayOfParam(change.beforeParam);
    await deleteRows(clickhouse, 'session_days', `project_id = {project:String} AND day <= ${day}`, params);
    await clickhouse.command(
      `INSERT INTO session_days ${sessionDaysOfEvents(eventsOnDayOf(change.beforeParam))}`,
      params,
    );
    return;
  }
  if (change.sessionDays.length === 0) return;
  const keys = { ...params, ...sessionDayKeyParams(change.sessionDays) };
  await deleteRows(clickhouse, 'session_days', IN_KEYS, keys);
  await clickhouse.command(`INSERT INTO session_days ${sessionDaysOfEvents(EVENTS_IN_KEYS)}`, keys);
}

/**
 * `user_value_sets` in line with `session_days`, once that is (ADR 039): a project's or a user's rows go
 * with their events; after retention the project's rows are rebuilt from its `session_days` (a row's
 * days may reach before the cut), after a wallet's delete those of the users seen with it. The rows
 * `alignSessionDays` inserted reached this table through its view, and are deleted and rebuilt with the
 * rest.
 */
async function alignUserValueSets(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  if (change.kind === 'all') {
    await deleteRows(clickhouse, 'user_value_sets', change.where, params);
    return;
  }
  let rows = 'project_id = {project:String}';
  let rowParams = params;
  if (change.kind === 'users') {
    if (change.userIds.length === 0) return;
    rows = `${rows} AND has({users:Array(String)}, user_id)`;
    rowParams = { ...params, users: change.userIds };
  }
  await deleteRows(clickhouse, 'user_value_sets', rows, rowParams);
  await clickhouse.command(`INSERT INTO user_value_sets ${userValueSetsOfSessionDays(rows)}`, rowParams);
}
