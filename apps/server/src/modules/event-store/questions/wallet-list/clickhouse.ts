import { z } from 'zod';
import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { eventFilter, FILTERED_WALLETS_CTE } from '../../clickhouse/event-filter.ts';
import { RECEIPT_HAS_FEE as HAS_FEE } from '../../clickhouse/question-sql.ts';
import { EVENT_ROWS, FROM, IN_RANGE, LATEST_STAGE, ms, STAGE_WINDOW, TO } from '../../clickhouse/sql.ts';
import type { WalletListQuery, WalletListRow } from '../../wallet-questions.ts';
import { walletFactsClickhouse } from '../lifecycle-stages/clickhouse.ts';
import { NO_POWER, stageSql } from '../lifecycle-stages/question.ts';
import { afterCursor, ListRow, orderBy, POWER_OF_FACTS, walletListRowOf } from './question.ts';

const FEE = 'toInt256(assumeNotNull(gas_used)) * toInt256(assumeNotNull(effective_gas_price))';

const Touch = z.object({
  u_wallet: z.string(),
  u_source: z.string().nullable(),
  u_campaign: z.string().nullable(),
});

/**
 * `touch`: the landing UTM source and campaign of each wallet's first event (the least id among its events
 * at its first time), for the (wallet, first time) pairs a SELECT gives; `times`, when given, narrows the
 * events by their sort key (project, ts) first.
 */
const touchOf = (pairs: string, times?: string) => `touch AS (
       SELECT assumeNotNull(wallet_address) AS u_wallet, argMin(utm_source, id) AS u_source,
              argMin(utm_campaign, id) AS u_campaign
         FROM ${EVENT_ROWS}
        WHERE project_id = {project:String}${times ? ` AND ts IN (${times})` : ''}
          AND (wallet_address, ts) IN (${pairs})
        GROUP BY u_wallet
     )`;

/**
 * `tx_totals`: per wallet, the transactions it requested in the range (the sender of a transaction's
 * first stage), those whose latest stage is `failed` or `reverted`, and the fees of their latest receipts
 * of each kind, for every wallet (a sort by them needs all; a page's wallets alone: `pageTotals`).
 */
const TX_TOTALS = `txs AS (
       SELECT argMin(coalesce(tx_from, wallet_address), ts) AS x_wallet, ${LATEST_STAGE} AS x_status,
              argMaxIf(${FEE}, ts, tx_stage = 'confirmed' AND ${HAS_FEE})
                + argMaxIf(${FEE}, ts, tx_stage = 'reverted' AND ${HAS_FEE}) AS x_fee
         FROM ${EVENT_ROWS}
        WHERE project_id = {project:String} AND type = 'tx' AND tx_id IS NOT NULL AND ${STAGE_WINDOW}
        GROUP BY tx_id
       HAVING min(ts) >= ${FROM} AND min(ts) < ${TO}
     ),
     tx_totals AS (
       SELECT assumeNotNull(x_wallet) AS t_wallet, count() AS t_transactions,
              countIf(x_status IN ('failed', 'reverted')) AS t_failed, sum(x_fee) AS t_gas
         FROM txs GROUP BY t_wallet
     )`;

const TxTotal = z.object({
  t_wallet: z.string(),
  t_transactions: z.coerce.number(),
  t_failed: z.coerce.number(),
  t_gas_text: z.string(),
});

/**
 * The page's wallets' transactions from their own rows (`wallet_events`, a prefix read per wallet): each
 * wallet's transactions of the stage window whose earliest stage among its rows it sent, folded from those
 * rows, when they are all the transaction's stages of the window (as many distinct ids as
 * `transaction_keys` holds of it there; a transaction's first stage carries its sender, so its rows hold
 * it). Those with a stage elsewhere (usually none) are listed in `elsewhere` and folded from `events`
 * as every wallet's are (`TX_TOTALS`), within the times `transaction_keys` gives their stages (ADR 102).
 */
const PAGE_TOTALS = `WITH page_rows AS (
       SELECT wallet AS r_wallet, assumeNotNull(tx_id) AS r_tx, id, ts, tx_from, wallet_address, tx_stage,
              gas_used, effective_gas_price
         FROM wallet_events
        WHERE project_id = {project:String} AND wallet IN {page_wallets:Array(String)} AND type = 'tx'
          AND tx_id IS NOT NULL AND ${STAGE_WINDOW}
     ),
     wallet_txs AS (
       SELECT r_wallet, r_tx, uniqExact(id) AS r_carried, min(ts) AS r_first, ${LATEST_STAGE} AS r_status,
              argMaxIf(${FEE}, ts, tx_stage = 'confirmed' AND ${HAS_FEE})
                + argMaxIf(${FEE}, ts, tx_stage = 'reverted' AND ${HAS_FEE}) AS r_fee
         FROM page_rows
        GROUP BY r_wallet, r_tx
       HAVING argMin(coalesce(tx_from, wallet_address), ts) = r_wallet
     ),
     stage_counts AS (
       SELECT key AS k_tx, uniqExact(id) AS k_stages FROM transaction_keys
        WHERE project_id = {project:String} AND key = tx_id AND ${STAGE_WINDOW}
          AND key IN (SELECT tx_id FROM wallet_events
                       WHERE project_id = {project:String} AND wallet IN {page_wallets:Array(String)}
                         AND type = 'tx' AND tx_id IS NOT NULL AND ${STAGE_WINDOW})
        GROUP BY key
     ),
     checked AS (
       SELECT r_wallet, r_tx, r_first, r_status, r_fee, r_carried = k_stages AS r_whole
         FROM wallet_txs LEFT JOIN stage_counts ON k_tx = r_tx
     )
     SELECT r_wallet AS t_wallet,
            countIf(r_whole AND r_first >= ${FROM} AND r_first < ${TO}) AS t_transactions,
            countIf(r_whole AND r_first >= ${FROM} AND r_first < ${TO} AND r_status IN ('failed', 'reverted')) AS t_failed,
            toString(sumIf(r_fee, r_whole AND r_first >= ${FROM} AND r_first < ${TO})) AS t_gas_text,
            groupArrayIf(r_tx, NOT r_whole) AS t_elsewhere
       FROM checked GROUP BY r_wallet
     SETTINGS join_use_nulls = 0`;

/** The folds of `TX_TOTALS` for the transactions `{e_0}`… alone, their events read within their stages' times. */
function elsewhereTotals(ids: readonly string[]): string {
  const list = ids.map((_id, index) => `{e_${index}:String}`).join(', ');
  const times = (fold: string) =>
    `(SELECT ${fold}(ts) FROM transaction_keys WHERE project_id = {project:String} AND key IN (${list}) AND ${STAGE_WINDOW})`;
  return `WITH txs AS (
       SELECT argMin(coalesce(tx_from, wallet_address), ts) AS x_wallet, ${LATEST_STAGE} AS x_status,
              argMaxIf(${FEE}, ts, tx_stage = 'confirmed' AND ${HAS_FEE})
                + argMaxIf(${FEE}, ts, tx_stage = 'reverted' AND ${HAS_FEE}) AS x_fee
         FROM ${EVENT_ROWS}
        WHERE project_id = {project:String} AND type = 'tx' AND tx_id IN (${list}) AND ${STAGE_WINDOW}
          AND ts >= ${times('min')} AND ts <= ${times('max')}
        GROUP BY tx_id
       HAVING min(ts) >= ${FROM} AND min(ts) < ${TO}
     )
     SELECT assumeNotNull(x_wallet) AS t_wallet, count() AS t_transactions,
            countIf(x_status IN ('failed', 'reverted')) AS t_failed, toString(sum(x_fee)) AS t_gas_text
       FROM txs WHERE x_wallet IN {page_wallets:Array(String)} GROUP BY t_wallet`;
}

/** The page's wallets' totals: from their rows, plus those of their transactions with a stage elsewhere. */
async function pageTotals(clickhouse: ClickHouse, params: Params): Promise<z.infer<typeof TxTotal>[]> {
  const fromRows = await clickhouse.rows(
    PAGE_TOTALS,
    params,
    TxTotal.extend({ t_elsewhere: z.array(z.string()) }),
  );
  const ids = [...new Set(fromRows.flatMap((row) => row.t_elsewhere))];
  const totals = new Map(
    fromRows.map((row) => [
      row.t_wallet,
      {
        t_wallet: row.t_wallet,
        t_transactions: row.t_transactions,
        t_failed: row.t_failed,
        gas: BigInt(row.t_gas_text),
      },
    ]),
  );
  if (ids.length > 0) {
    const withIds: Params = { ...params };
    ids.forEach((id, index) => {
      withIds[`e_${index}`] = id;
    });
    for (const row of await clickhouse.rows(elsewhereTotals(ids), withIds, TxTotal)) {
      const total = totals.get(row.t_wallet) ?? {
        t_wallet: row.t_wallet,
        t_transactions: 0,
        t_failed: 0,
        gas: 0n,
      };
      total.t_transactions += row.t_transactions;
      total.t_failed += row.t_failed;
      total.gas += BigInt(row.t_gas_text);
      totals.set(row.t_wallet, total);
    }
  }
  return [...totals.values()].map(({ gas, ...total }) => ({ ...total, t_gas_text: gas.toString() }));
}

/** The page's first times, as DateTime64 values. */
const PAGE_FIRSTS = "arrayMap(m -> fromUnixTimestamp64Milli(toInt64(m), 'UTC'), {page_firsts:Array(String)})";

export async function walletList(
  clickhouse: ClickHouse,
  projectId: string,
  query: WalletListQuery,
): Promise<WalletListRow[]> {
  // The stage column and filter: the lifecycle's facts as of the as-of day of the project's zone.
  const facts = walletFactsClickhouse(query.asOfDay, query.timeZone);
  const params: Params = {
    project: projectId,
    from: query.range.fromMs,
    to: query.range.toMs,
    ...facts.params,
    limit: query.limit,
  };
  // The Power threshold given, or derived in the same query from the facts it reads (ADR 102).
  const derivePower = query.powerThreshold === undefined;
  if (!derivePower) params.power = query.powerThreshold ?? NO_POWER;
  const seenFilters: string[] = [];
  // The Analytics filters: the wallets a passing session carried in the range (docs/wallets.md).
  const filter = eventFilter(query.filters);
  if (filter.cte) {
    seenFilters.push(`wallet_address IN (SELECT wallet FROM filtered_wallets)`);
    Object.assign(params, filter.params);
  }
  if (query.search) {
    seenFilters.push('startsWith(assumeNotNull(wallet_address), {search:String})');
    params.search = query.search;
  }
  if (query.chainId !== null) {
    seenFilters.push('chain_id = {chain:Int64}');
    params.chain = query.chainId;
  }
  if (query.country !== null) {
    seenFilters.push('country = {country:String}');
    params.country = query.country;
  }
  const listFilters: string[] = [];
  if (query.stage) {
    listFilters.push('stage = {stage:String}');
    params.stage = query.stage;
  }
  if (query.source !== null) {
    listFilters.push('source = {source:String}');
    params.source = query.source;
  }
  if (query.campaign !== null) {
    listFilters.push('campaign = {campaign:String}');
    params.campaign = query.campaign;
  }
  if (query.after) {
    const value =
      query.sort === 'gas_paid' ? 'toInt256({after_value:String})' : 'toInt64({after_value:String})';
    listFilters.push(afterCursor(query, value, '{after_wallet:String}'));
    params.after_value = query.after.value;
    params.after_wallet = query.after.wallet;
  }
  // The first touch is read for the page's wallets alone (a second, small read) unless the list is
  // narrowed by it: reading it for every wallet of the range cost more than the rest of the list on chdb.
  const touchFirst = query.source !== null || query.campaign !== null;
  // The transactions too (the list's costliest part on chdb after the range's events), when neither the
  // sort nor a filter needs them for every wallet.
  const txsFirst = query.sort !== 'last_seen' && query.sort !== 'first_seen';
  const stage = stageSql(derivePower ? `ifNull(p_threshold, ${NO_POWER})` : '{power:Int64}').replaceAll(
    /\b(age|n28|n14|n_before)\b/g,
    'w_$1',
  );
  const rows = await clickhouse.rows(
    `${
      filter.cte
        ? `WITH ${filter.cte},
     ${FILTERED_WALLETS_CTE},
     `
        : 'WITH '
    }seen AS (
       SELECT assumeNotNull(wallet_address) AS s_wallet, ${ms('max(ts)')} AS s_last
         FROM ${EVENT_ROWS}
        WHERE ${IN_RANGE} AND wallet_address IS NOT NULL${seenFilters.map((f) => ` AND ${f}`).join('')}
        GROUP BY s_wallet
     ),
     firsts AS (
       SELECT wallet AS f_wallet, min(first_seen) AS f_first FROM wallet_firsts
        WHERE project_id = {project:String}
        GROUP BY wallet
     ),
     ${touchFirst ? `${touchOf('SELECT f_wallet, f_first FROM firsts')},` : ''}
     ${txsFirst ? `${TX_TOTALS},` : ''}
     ${facts.sql},
     facts AS (SELECT wallet AS w_wallet, age AS w_age, n28 AS w_n28, n14 AS w_n14, n_before AS w_n_before FROM wallet_facts),${
       derivePower
         ? `
     power AS (SELECT threshold AS p_threshold FROM (${POWER_OF_FACTS('arrayReverseSort(groupArray(n28))')})),`
         : ''
     }
     listed AS (
       SELECT s_wallet AS list_wallet, ${ms('f_first')} AS first_ms, s_last AS last_ms,
              ${txsFirst ? 't_transactions AS transactions, t_failed AS failed, toInt256(t_gas) AS gas_paid' : '0 AS transactions, 0 AS failed, toInt256(0) AS gas_paid'},
              ${stage} AS stage, ${touchFirst ? 'u_source AS source, u_campaign AS campaign' : 'NULL AS source, NULL AS campaign'}${
                derivePower ? ', p_threshold AS power_threshold' : ''
              }
         FROM seen
         INNER JOIN firsts ON f_wallet = s_wallet
         INNER JOIN facts ON w_wallet = s_wallet
         ${txsFirst ? 'LEFT JOIN tx_totals ON t_wallet = s_wallet' : ''}
         ${touchFirst ? 'LEFT JOIN touch ON u_wallet = s_wallet' : ''}
         ${derivePower ? 'CROSS JOIN power' : ''}
     )
     SELECT list_wallet, first_ms, last_ms, transactions, failed, toString(gas_paid) AS gas_paid_text, stage,
            source, campaign${derivePower ? ', power_threshold' : ''}
       FROM listed
      ${listFilters.length ? `WHERE ${listFilters.join(' AND ')}` : ''}
      ORDER BY ${orderBy(query)}
      LIMIT {limit:Int64}
     SETTINGS join_use_nulls = 0`,
    params,
    ListRow,
  );
  if (rows.length === 0 || (touchFirst && txsFirst)) return rows.map(walletListRowOf);
  const page = {
    project: projectId,
    page_wallets: rows.map((row) => row.list_wallet),
    page_firsts: rows.map((row) => String(row.first_ms)),
  };
  // The page's first touches alone: the events at each listed wallet's first time (found by the sort key),
  // and its transactions alone: both asked at once.
  const [touches, totals] = await Promise.all([
    touchFirst
      ? null
      : clickhouse.rows(
          `WITH ${touchOf(
            `SELECT pair.1, pair.2 FROM (SELECT arrayJoin(arrayZip({page_wallets:Array(String)}, ${PAGE_FIRSTS})) AS pair)`,
            `SELECT arrayJoin(${PAGE_FIRSTS})`,
          )}
     SELECT u_wallet, u_source, u_campaign FROM touch`,
          page,
          Touch,
        ),
    txsFirst ? null : pageTotals(clickhouse, { ...page, from: query.range.fromMs, to: query.range.toMs }),
  ]);
  const touchOfWallet = new Map(touches?.map((touch) => [touch.u_wallet, touch]));
  const totalOfWallet = new Map(totals?.map((total) => [total.t_wallet, total]));
  return rows.map((row) => {
    const touch = touches ? touchOfWallet.get(row.list_wallet) : null;
    const total = totals ? totalOfWallet.get(row.list_wallet) : null;
    return walletListRowOf({
      ...row,
      ...(touches && { source: touch?.u_source ?? null, campaign: touch?.u_campaign ?? null }),
      ...(totals && {
        transactions: total?.t_transactions ?? 0,
        failed: total?.t_failed ?? 0,
        gas_paid_text: total?.t_gas_text ?? '0',
      }),
    });
  });
}
