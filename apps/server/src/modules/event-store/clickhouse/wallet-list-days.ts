import type { DerivedRowsChange } from './aligned-tables.ts';
import { type ClickHouse, deleteRows, type Params } from './client.ts';
import { COPY_SPILL_BYTES } from './copy-spill.ts';
import { dayOfParam, eventsOnDayOf } from './session-days.ts';
import { alignWalletDayBits } from './wallet-day-bits.ts';
import { EVENTS_IN_WALLET_KEYS, IN_WALLET_KEYS, walletDayKeyParams } from './wallet-days.ts';
import { alignWalletTouches } from './wallet-touches.ts';

/**
 * `wallet_list_days`: one row per (project, UTC day, wallet) with what the Wallets list reads of the
 * events carrying the wallet (as the connected wallet) that day (docs/decisions/110): the latest time,
 * and the latest time per chain and per country (`maxMap`s: key → latest time), so that the list's
 * `seen` (the wallets of the range with their last seen, narrowed by a chain or a country) reads a row
 * per wallet-day instead of every event of the range. An AggregatingMergeTree fed by a materialized view
 * on `events`, keyed as `wallet_days` (ADR 031): every column is a maximum, so an event stored twice, a
 * wallet's day spread over several loads or loads out of order fold to the same row, and nothing reads
 * it with FINAL (the readers take the maxima again). A delete brings it in line as `wallet_days`: the
 * same (day, wallet) keys.
 */

/** The UTC day an event falls in. */
const EVENT_DAY = "toDate(ts, 'UTC')";

export const CREATE_WALLET_LIST_DAYS = `CREATE TABLE IF NOT EXISTS wallet_list_days (
  project_id String,
  day Date,
  wallet String,
  last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
  chain_lasts SimpleAggregateFunction(maxMap, Tuple(Array(Int64), Array(DateTime64(3, 'UTC')))),
  country_lasts SimpleAggregateFunction(maxMap, Tuple(Array(String), Array(DateTime64(3, 'UTC'))))
) ENGINE = AggregatingMergeTree
ORDER BY (project_id, day, wallet)`;

/** A `maxMap` of a nullable column's values (as `key`) to their latest time; a row without one adds nothing. */
const latestPer = (column: string, key: string) =>
  `maxMap(if(${column} IS NULL, [], [${key}]), if(${column} IS NULL, [], [ts]))`;

/** The rows of `wallet_list_days` for the events a SELECT reads (`where`: more conditions on them). */
export const walletListDaysOfEvents = (where = '') =>
  `SELECT project_id, ${EVENT_DAY} AS day, assumeNotNull(wallet_address) AS wallet,
         max(ts) AS last_seen,
         ${latestPer('chain_id', 'assumeNotNull(chain_id)')} AS chain_lasts,
         ${latestPer('country', 'toString(assumeNotNull(country))')} AS country_lasts
    FROM events
   WHERE wallet_address IS NOT NULL${where ? ` AND ${where}` : ''}
   GROUP BY project_id, day, wallet`;

/**
 * Version 25: the table, the view that feeds it, then the rows of the stored events sorted by the key
 * (an event loaded meanwhile reaches it through the view, the copy or both: the same maxima), merged
 * into one part (schema.ts) as version 23 left every other table.
 */
export const WALLET_LIST_DAYS_STATEMENTS = [
  CREATE_WALLET_LIST_DAYS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS wallet_list_days_of_events TO wallet_list_days AS
${walletListDaysOfEvents()}`,
  `INSERT INTO wallet_list_days ${walletListDaysOfEvents()}
   ORDER BY project_id, day, wallet
SETTINGS max_bytes_before_external_group_by = ${COPY_SPILL_BYTES},
         max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];

/**
 * `wallet_list_days` in line with the events that stay after a delete, as `wallet_days`
 * (aligned-tables.ts alignWalletDays): a project's rows go with it; retention deletes the days before its
 * cut and rebuilds its day; a user's or a wallet's delete rebuilds the (UTC day, wallet) keys its events
 * were in. Then `wallet_day_bits`, fed by a view on this table, from the rows that stay, and
 * `wallet_touches` from the events that stay (ADR 114).
 */
export async function alignWalletListDays(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  await alignListDays(clickhouse, params, change);
  await alignWalletDayBits(clickhouse, params, change);
  await alignWalletTouches(clickhouse, params, change);
}

async function alignListDays(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  if (change.kind === 'days') {
    const day = dayOfParam(change.beforeParam);
    await deleteRows(
      clickhouse,
      'wallet_list_days',
      `project_id = {project:String} AND day <= ${day}`,
      params,
    );
    await clickhouse.command(
      `INSERT INTO wallet_list_days ${walletListDaysOfEvents(eventsOnDayOf(change.beforeParam))}`,
      params,
    );
    return;
  }
  if (change.kind === 'all' && change.walletDays === 'where') {
    await deleteRows(clickhouse, 'wallet_list_days', change.where, params);
    return;
  }
  const walletDays = change.walletDays === 'where' ? [] : change.walletDays;
  if (walletDays.length === 0) return;
  const keys = { ...params, ...walletDayKeyParams(walletDays) };
  await deleteRows(clickhouse, 'wallet_list_days', IN_WALLET_KEYS, keys);
  await clickhouse.command(
    `INSERT INTO wallet_list_days ${walletListDaysOfEvents(EVENTS_IN_WALLET_KEYS)}`,
    keys,
  );
}
