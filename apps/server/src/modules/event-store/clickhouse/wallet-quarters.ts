import type { DerivedRowsChange } from './aligned-tables.ts';
import { type ClickHouse, deleteRows, type Params } from './client.ts';
import { COPY_SPILL_BYTES } from './copy-spill.ts';
import { dayOfParam, eventsOnDayOf } from './session-days.ts';
import { idHash } from './user-quarters.ts';
import { EVENTS_IN_WALLET_KEYS, walletDayKeyParams } from './wallet-days.ts';

/**
 * `wallet_quarters`: one row per (project, UTC quarter-hour, wallet) with an event carrying the wallet
 * (ADR 087). Every zone's offset from UTC is a whole number of quarter-hours, so the events of one
 * quarter-hour lie in one local day of any zone: a zoned project's lifecycle counts its wallets' local
 * days from these rows, exactly, where it read the events of its 56-day window. A ReplacingMergeTree fed
 * by a materialized view on `events`: a duplicate row (an event stored twice, a quarter-hour spread over
 * loads) folds away on merge, and the readers count distinct days, so one not yet folded changes nothing.
 * The same shape as DuckDB's `wallet_quarters` (ADR 090).
 */

/** The UTC quarter-hour an event falls in. */
const EVENT_QUARTER = "toDateTime64(toStartOfInterval(toDateTime(ts, 'UTC'), INTERVAL 15 MINUTE), 3, 'UTC')";

export const CREATE_WALLET_QUARTERS = `CREATE TABLE IF NOT EXISTS wallet_quarters (
  project_id String,
  quarter DateTime64(3, 'UTC'),
  wallet String
) ENGINE = ReplacingMergeTree
ORDER BY (project_id, quarter, wallet)`;

/** The rows of `wallet_quarters` for the events a SELECT reads (`where`: more conditions on them). */
export const walletQuartersOfEvents = (where = '') =>
  `SELECT DISTINCT project_id, ${EVENT_QUARTER} AS quarter, assumeNotNull(wallet_address) AS wallet
    FROM events
   WHERE wallet_address IS NOT NULL${where ? ` AND ${where}` : ''}`;

/**
 * `wallet_hash`, added by schema version 21: the 128-bit SipHash of the wallet that `uniqExact` of the text
 * computes per row, stored (MATERIALIZED: no insert names it, `SELECT *` leaves it out), so that the zoned
 * active days count the same distinct wallets from a number (ADR 095). Stored parts get it by a mutation
 * in the background; until a part has it, reading it computes it from the same expression.
 */
export const WALLET_HASH_STATEMENTS = [
  `ALTER TABLE wallet_quarters ADD COLUMN IF NOT EXISTS wallet_hash UInt128 MATERIALIZED ${idHash('wallet')}`,
  'ALTER TABLE wallet_quarters MATERIALIZE COLUMN wallet_hash',
];

/** The table, the view that feeds it, then the rows already stored (a repeat only adds duplicates). */
export const WALLET_QUARTERS_STATEMENTS = [
  CREATE_WALLET_QUARTERS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS wallet_quarters_of_events TO wallet_quarters AS
${walletQuartersOfEvents()}`,
  `INSERT INTO wallet_quarters ${walletQuartersOfEvents()}
   ORDER BY project_id, quarter, wallet
SETTINGS max_bytes_before_external_group_by = ${COPY_SPILL_BYTES},
         max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];

const KEYS = 'arrayZip({wallet_key_days:Array(String)}, {wallet_key_wallets:Array(String)})';

/**
 * `wallet_quarters` in line with the events that stay after a delete, as `wallet_days` is
 * (aligned-tables.ts): a project's rows go with it; retention deletes the quarter-hours of the days
 * before its cut and rebuilds those of its day; a user's or a wallet's delete rebuilds the quarter-hours
 * of the (UTC day, wallet) keys its events were in.
 */
export async function alignWalletQuarters(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  if (change.kind === 'days') {
    const day = dayOfParam(change.beforeParam);
    await deleteRows(
      clickhouse,
      'wallet_quarters',
      `project_id = {project:String} AND toDate(quarter, 'UTC') <= ${day}`,
      params,
    );
    await clickhouse.command(
      `INSERT INTO wallet_quarters ${walletQuartersOfEvents(eventsOnDayOf(change.beforeParam))}`,
      params,
    );
    return;
  }
  if (change.kind === 'all' && change.walletDays === 'where') {
    await deleteRows(clickhouse, 'wallet_quarters', change.where, params);
    return;
  }
  const walletDays = change.walletDays === 'where' ? [] : change.walletDays;
  if (walletDays.length === 0) return;
  const keys = { ...params, ...walletDayKeyParams(walletDays) };
  await deleteRows(
    clickhouse,
    'wallet_quarters',
    `project_id = {project:String}
     AND quarter >= toDateTime64({wallet_keys_from:String}, 3, 'UTC')
     AND quarter < toDateTime64({wallet_keys_to:String}, 3, 'UTC') + INTERVAL 1 DAY
     AND has(${KEYS}, (toString(toDate(quarter, 'UTC')), wallet))`,
    keys,
  );
  await clickhouse.command(
    `INSERT INTO wallet_quarters ${walletQuartersOfEvents(EVENTS_IN_WALLET_KEYS)}`,
    keys,
  );
}
