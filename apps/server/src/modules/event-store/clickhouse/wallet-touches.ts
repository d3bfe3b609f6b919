import { z } from 'zod';
import type { DerivedRowsChange } from './aligned-tables.ts';
import { type ClickHouse, deleteRows, type Params } from './client.ts';
import { COPY_SPILL_BYTES } from './copy-spill.ts';

/**
 * `wallet_touches`: one row per (project, wallet) with the landing UTM source and campaign of the
 * wallet's first event (docs/wallets.md, the Wallets list's first touch; docs/decisions/114), so that the
 * list reads its page's touches by the key instead of the events' granules at each wallet's first time.
 * The first event is the least id among the events carrying the wallet (as the connected wallet) at its
 * first time: `first_touch` is the least (time, id, no source, source, no campaign, campaign) of the wallet's
 * events, so the first event's source and campaign, NULL or not (as DuckDB's `wallet_first_touches`). An
 * AggregatingMergeTree of minima fed by a view on `events`: an event stored twice or a wallet's events
 * over several loads fold to the same minima; nothing reads it with FINAL (the reader takes the minima
 * again). A delete brings it in line with `alignWalletTouches`.
 */

const flaggedText = (column: string) => `toUInt8(${column} IS NULL), toString(ifNull(${column}, ''))`;

export const CREATE_WALLET_TOUCHES = `CREATE TABLE IF NOT EXISTS wallet_touches (
  project_id String,
  wallet String,
  first_touch SimpleAggregateFunction(min, Tuple(DateTime64(3, 'UTC'), String, UInt8, String, UInt8, String))
) ENGINE = AggregatingMergeTree
ORDER BY (project_id, wallet)`;

/** The rows of `wallet_touches` for the events a SELECT reads (`where`: more conditions on them). */
export const walletTouchesOfEvents = (where = '') =>
  `SELECT project_id, assumeNotNull(wallet_address) AS wallet,
         min((ts, id, ${flaggedText('utm_source')}, ${flaggedText('utm_campaign')})) AS first_touch
    FROM events
   WHERE wallet_address IS NOT NULL${where ? ` AND ${where}` : ''}
   GROUP BY project_id, wallet`;

/**
 * Version 29: the table, the view that feeds it, then the rows of the stored events sorted by the key (an
 * event loaded meanwhile reaches it through the view, the copy or both: the same minima), merged into one
 * part (schema.ts).
 */
export const WALLET_TOUCHES_STATEMENTS = [
  CREATE_WALLET_TOUCHES,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS wallet_touches_of_events TO wallet_touches AS
${walletTouchesOfEvents()}`,
  `INSERT INTO wallet_touches ${walletTouchesOfEvents()}
   ORDER BY project_id, wallet
SETTINGS max_bytes_before_external_group_by = ${COPY_SPILL_BYTES},
         max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];

/**
 * The touch of the project's wallets, or of those `wallets` names (an expression `IN` takes), as
 * `u_wallet`, `u_source`, `u_campaign`: each wallet's rows folded.
 */
export const walletTouchesOf = (wallets?: string) =>
  `SELECT wallet AS u_wallet,
          min(first_touch) AS u_touch, if(u_touch.3 = 0, u_touch.4, NULL) AS u_source,
          if(u_touch.5 = 0, u_touch.6, NULL) AS u_campaign
     FROM wallet_touches
    WHERE project_id = {project:String}${wallets ? ` AND wallet IN ${wallets}` : ''}
    GROUP BY wallet`;

const WalletRow = z.object({ wallet: z.string() });

/**
 * `wallet_touches` in line with the events that stay after a delete (derived-tables.ts): a project's rows
 * go with it; retention rebuilds the wallets whose first event was before the cut, a user's or a wallet's
 * delete those of the wallet-days it touched, from the events of those wallets that stay.
 */
export async function alignWalletTouches(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  if (change.kind === 'all' && change.walletDays === 'where') {
    await deleteRows(clickhouse, 'wallet_touches', change.where, params);
    return;
  }
  const wallets =
    change.kind === 'days'
      ? (
          await clickhouse.rows(
            `SELECT DISTINCT wallet FROM wallet_touches
              WHERE project_id = {project:String}
                AND first_touch.1 < fromUnixTimestamp64Milli({${change.beforeParam}:Int64}, 'UTC')`,
            params,
            WalletRow,
          )
        ).map((row) => row.wallet)
      : [...new Set((change.walletDays === 'where' ? [] : change.walletDays).map((key) => key.wallet))];
  if (wallets.length === 0) return;
  const rows = 'project_id = {project:String} AND wallet IN {touch_wallets:Array(String)}';
  const rowParams = { ...params, touch_wallets: wallets };
  await deleteRows(clickhouse, 'wallet_touches', rows, rowParams);
  await clickhouse.command(
    `INSERT INTO wallet_touches ${walletTouchesOfEvents(
      'project_id = {project:String} AND wallet_address IN {touch_wallets:Array(String)}',
    )}`,
    rowParams,
  );
}
