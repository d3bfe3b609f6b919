import { z } from 'zod';
import { DAY_MS } from '../../../../reading/time-range.ts';
import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { dayParts } from '../../clickhouse/day-parts.ts';
import { eventFilter, FILTERED_WALLETS_CTE } from '../../clickhouse/event-filter.ts';
import { EVENT_ROWS, FROM, ms, TO } from '../../clickhouse/sql.ts';
import { DAY_BITS_BLOCK_DAYS } from '../../clickhouse/wallet-day-bits.ts';
import { allTxTotalsOf, pageTxTotalsOf } from '../../clickhouse/wallet-list-transactions.ts';
import { walletTouchesOf } from '../../clickhouse/wallet-touches.ts';
import { TX_STAGE_WINDOW_MS } from '../../domain.ts';
import { LIFECYCLE_WINDOWS, type WalletListQuery, type WalletListRow } from '../../wallet-questions.ts';
import { walletFactsClickhouse } from '../lifecycle-stages/clickhouse.ts';
import { GROUP_SQL, lifecycleWindow, NO_POWER, stageSql, WINDOW_DAYS } from '../lifecycle-stages/question.ts';
import { afterCursor, ListRow, orderBy, walletListRowOf } from './question.ts';

const Touch = z.object({
  u_wallet: z.string(),
  u_source: z.string().nullable(),
  u_campaign: z.string().nullable(),
});

/**
 * `touch`: the landing UTM source and campaign of each wallet's first event (the least id among its events
 * at its first time with one), from `wallet_touches` (ADR 114): every wallet's of the project, or those
 * `wallets` names.
 */
const touchOf = (wallets?: string) => `touch AS (
       ${walletTouchesOf(wallets)}
     )`;

const TxTotal = z.object({
  t_wallet: z.string(),
  t_transactions: z.coerce.number(),
  t_failed: z.coerce.number(),
  t_gas_text: z.string(),
});
type Touch = z.infer<typeof Touch>;
type TxTotal = z.infer<typeof TxTotal>;
/** A page wallet's touch and transactions, asked in one statement. */
const PageRow = Touch.omit({ u_wallet: true })
  .extend(TxTotal.omit({ t_wallet: true }).shape)
  .extend({ wallet: z.string() });

/** The facts' columns as the list names them, with the first time seen (both facts carry it). */
const FACTS_COLUMNS =
  'wallet AS w_wallet, age AS w_age, n28 AS w_n28, n14 AS w_n14, n_before AS w_n_before, first_seen AS w_first';
const PLAIN_FACTS = `facts AS (SELECT ${FACTS_COLUMNS} FROM wallet_facts)`;
/**
 * The facts with the Power threshold (lifecycle-stages/question.ts `powerThreshold`) on every row, from
 * one read of them (a CTE named twice is read twice): the candidates (GROUP_SQL 'recent') ranked first by
 * their n28, largest first; the threshold is the n28 of the ⌈N × 0.1⌉-th (in doubles, as TypeScript), at
 * least 2; NULL without a candidate.
 */
const POWER_FACTS = `ranked AS (
       SELECT ${FACTS_COLUMNS}, (${GROUP_SQL}) = 'recent' AS w_candidate,
              countIf(w_candidate) OVER () AS w_candidates,
              row_number() OVER (ORDER BY w_candidate DESC, w_n28 DESC) AS w_rank
         FROM wallet_facts
     ),
     facts AS (
       SELECT w_wallet, w_age, w_n28, w_n14, w_n_before, w_first,
              if(w_candidates = 0, NULL,
                 greatest(${LIFECYCLE_WINDOWS.powerMinDays},
                          maxIf(w_n28, w_rank = toUInt64(ceil(toFloat64(w_candidates) * ${LIFECYCLE_WINDOWS.powerShare}))) OVER ())) AS w_threshold
         FROM ranked
     )`;

/**
 * In UTC, the facts (lifecycle-stages/question.ts) of the project's wallets first seen up to the as-of
 * day A, from `firsts` (the age) and `wallet_day_bits` (ADR 114): the rows of the blocks the window
 * A−55…A lies in, each block's bits moved to window positions (bit p: day A−55+p; a block's day i is at
 * p = 64 × block + i − (A−55): shifted left or right, both shifts unsigned: a signed one makes
 * the result signed, and a right shift of it carries the 64th day's bit along) and ORed per wallet, the days after A masked off. The counts are the bits
 * of the window's parts: the last 28 days at p ≥ 28, the last 14 at p ≥ 42, the 28 before at p < 28.
 * Reads at most two rows per wallet, not one per active day of its history (a third of the CPU on chdb).
 * Parameters `asof`, `bits_start` (A−55 as a day number), `bits_first_block`, `bits_last_block`.
 */
const BIT_FACTS = (() => {
  if (WINDOW_DAYS > DAY_BITS_BLOCK_DAYS) throw new Error("the window's days are bits of one UInt64");
  const W = LIFECYCLE_WINDOWS;
  const offset = `toInt32(block) * ${DAY_BITS_BLOCK_DAYS} - {bits_start:Int32}`;
  const windowMask = String((1n << BigInt(WINDOW_DAYS)) - 1n);
  return `wallet_facts AS (
       SELECT f_wallet AS wallet, f_first AS first_seen,
              dateDiff('day', toDate(f_first, 'UTC'), toDate({asof:String})) AS age,
              bitCount(bitShiftRight(b_days, ${WINDOW_DAYS - W.lifeDays})) AS n28,
              bitCount(bitShiftRight(b_days, ${WINDOW_DAYS - W.recentDays})) AS n14,
              bitCount(bitAnd(b_days, ${2 ** (WINDOW_DAYS - W.lifeDays) - 1})) AS n_before
         FROM firsts
         LEFT JOIN (
           SELECT wallet AS b_wallet,
                  bitAnd(groupBitOr(bitShiftRight(bitShiftLeft(days, toUInt8(greatest(${offset}, 0))), toUInt8(greatest(-(${offset}), 0)))),
                         ${windowMask}) AS b_days
             FROM wallet_day_bits
            WHERE project_id = {project:String}
              AND block >= {bits_first_block:UInt16} AND block <= {bits_last_block:UInt16}
            GROUP BY b_wallet
         ) AS bits ON b_wallet = f_wallet
        WHERE toDate(f_first, 'UTC') <= toDate({asof:String})
     )`;
})();

/** Each wallet's first time seen, which `BIT_FACTS` reads. */
const FIRSTS = `firsts AS (
       SELECT wallet AS f_wallet, min(first_seen) AS f_first FROM wallet_firsts
        WHERE project_id = {project:String}
        GROUP BY wallet
     )`;

/** `BIT_FACTS`' parameters for the as-of day. */
function bitFactsParams(asOfDay: string): Params {
  const asOf = Math.round(Date.parse(`${asOfDay}T00:00:00Z`) / DAY_MS);
  const start = asOf - (WINDOW_DAYS - 1);
  return {
    asof: asOfDay,
    bits_start: start,
    bits_first_block: Math.floor(start / DAY_BITS_BLOCK_DAYS),
    bits_last_block: Math.floor(asOf / DAY_BITS_BLOCK_DAYS),
  };
}

export async function walletList(
  clickhouse: ClickHouse,
  projectId: string,
  query: WalletListQuery,
): Promise<WalletListRow[]> {
  // The stage column and filter: the lifecycle's facts as of the as-of day of the project's zone.
  // In UTC from the day bits (ADR 114), after `firsts`; in another zone from the quarter-hours.
  // Both carry each wallet's first time, from one read of `wallet_firsts` (a CTE is read where named:
  // `firsts` in UTC, the zoned facts' own in a zone; ADR 140).
  const facts = lifecycleWindow(query.asOfDay, query.timeZone)
    ? walletFactsClickhouse(query.asOfDay, query.timeZone)
    : { sql: `${FIRSTS},\n     ${BIT_FACTS}`, params: bitFactsParams(query.asOfDay) };
  const params: Params = {
    project: projectId,
    from: query.range.fromMs,
    to: query.range.toMs,
    ...facts.params,
    limit: query.limit,
  };
  // The Power threshold given, or derived in the same query from the facts it reads anyway, and given on
  // every row (ADR 102, 110).
  const derivePower = query.powerThreshold === undefined;
  if (!derivePower) params.power = query.powerThreshold ?? NO_POWER;
  // The wallets seen in the range, narrowed by the filters: conditions on the wallet (`eventFilters` on the
  // events of the range's partial UTC days, `dayFilters` on `wallet_list_days` rows of its whole days), and
  // the chain and country, which keep a wallet with such an event in the range (`eventMatch`, `dayMatch`)
  // without narrowing its last seen: its latest event in the range on any chain, from anywhere
  // (docs/wallets.md).
  const eventFilters: string[] = [];
  const dayFilters: string[] = [];
  const eventMatch: string[] = [];
  const dayMatch: string[] = [];
  // The Analytics filters: the wallets a passing session carried in the range (docs/wallets.md).
  const filter = eventFilter(query.filters);
  if (filter.cte) {
    eventFilters.push('wallet_address IN (SELECT wallet FROM filtered_wallets)');
    dayFilters.push('wallet IN (SELECT wallet FROM filtered_wallets)');
    Object.assign(params, filter.params);
  }
  if (query.search) {
    eventFilters.push('startsWith(assumeNotNull(wallet_address), {search:String})');
    dayFilters.push('startsWith(wallet, {search:String})');
    params.search = query.search;
  }
  if (query.chainId !== null) {
    eventMatch.push('chain_id = {chain:Int64}');
    dayMatch.push('has(chain_lasts.1, {chain:Int64})');
    params.chain = query.chainId;
  }
  if (query.country !== null) {
    eventMatch.push('country = {country:String}');
    dayMatch.push('has(country_lasts.1, {country:String})');
    params.country = query.country;
  }
  // A chain and a country together: an event with both, which the day rows do not keep, from the events of
  // the whole range.
  const seenParts = dayParts(query.range, 's_');
  const days = query.chainId !== null && query.country !== null ? null : seenParts.wholeDays;
  const edges = days ? seenParts.partialDays : `ts >= ${FROM} AND ts < ${TO}`;
  Object.assign(params, seenParts.params);
  const matches = eventMatch.length > 0;
  const seenSources: string[] = [];
  if (days)
    seenSources.push(`SELECT wallet AS d_wallet, max(last_seen) AS d_last${
      matches ? `, max(toUInt8(${dayMatch.join(' AND ')})) AS d_match` : ''
    }
         FROM wallet_list_days
        WHERE project_id = {project:String} AND ${days}${dayFilters.map((f) => ` AND ${f}`).join('')}
        GROUP BY d_wallet`);
  if (edges)
    seenSources.push(`SELECT assumeNotNull(wallet_address) AS d_wallet, max(ts) AS d_last${
      matches ? `, max(toUInt8(ifNull(${eventMatch.join(' AND ')}, 0))) AS d_match` : ''
    }
         FROM ${EVENT_ROWS}
        WHERE project_id = {project:String} AND ${edges} AND wallet_address IS NOT NULL${eventFilters
          .map((f) => ` AND ${f}`)
          .join('')}
        GROUP BY d_wallet`);
  const seen =
    seenSources.length === 1 && !matches
      ? `SELECT d_wallet AS s_wallet, ${ms('d_last')} AS s_last FROM (${seenSources[0]})`
      : `SELECT d_wallet AS s_wallet, ${ms('max(d_last)')} AS s_last
         FROM (${seenSources.join('\n        UNION ALL\n       ')})
        GROUP BY s_wallet${matches ? '\n       HAVING max(d_match) = 1' : ''}`;
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
  // The transactions too (every wallet's fold is about 60 CPU ms on the bench's largest project, the page's
  // about 40), when neither the sort nor a filter needs them for every wallet.
  const txsFirst = query.sort !== 'last_seen' && query.sort !== 'first_seen';
  // The stage window of the range's transactions (one day either side), as whole days and partial ones.
  const txWindow = dayParts(
    { fromMs: query.range.fromMs - TX_STAGE_WINDOW_MS, toMs: query.range.toMs + TX_STAGE_WINDOW_MS },
    'x_',
  );
  if (txsFirst) Object.assign(params, txWindow.params);
  const stage = stageSql(derivePower ? `ifNull(w_threshold, ${NO_POWER})` : '{power:Int64}').replaceAll(
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
       ${seen}
     ),
     ${touchFirst ? `${touchOf()},` : ''}
     ${txsFirst ? `${allTxTotalsOf(txWindow)},` : ''}
     ${facts.sql},
     ${derivePower ? POWER_FACTS : PLAIN_FACTS},
     listed AS (
       SELECT s_wallet AS list_wallet, ${ms('w_first')} AS first_ms, s_last AS last_ms,
              ${txsFirst ? 't_transactions AS transactions, t_failed AS failed, toInt256(t_gas) AS gas_paid' : '0 AS transactions, 0 AS failed, toInt256(0) AS gas_paid'},
              ${stage} AS stage, ${touchFirst ? 'u_source AS source, u_campaign AS campaign' : 'NULL AS source, NULL AS campaign'}${
                derivePower ? ', w_threshold AS power_threshold' : ''
              }
         FROM seen
         INNER JOIN facts ON w_wallet = s_wallet
         ${txsFirst ? 'LEFT JOIN tx_totals ON t_wallet = s_wallet' : ''}
         ${touchFirst ? 'LEFT JOIN touch ON u_wallet = s_wallet' : ''}
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
  };
  // The page's first touches alone (the events at each listed wallet's first time, found by the sort key)
  // and its transactions alone, in one statement when both are needed (a statement's analysis is a fixed
  // cost on chdb): the page's wallets with either, joined by the wallet (join_use_nulls = 0: a wallet
  // without transactions has zeros, one without a touch NULLs, as asked apart).
  const touchesSql = `${touchOf('{page_wallets:Array(String)}')}`;
  const totalsParams = { from: query.range.fromMs, to: query.range.toMs, ...txWindow.params };
  const [touches, totals] =
    !touchFirst && !txsFirst
      ? await clickhouse
          .rows(
            `WITH ${touchesSql},
     ${pageTxTotalsOf(txWindow)}
     SELECT if(u_wallet = '', t_wallet, u_wallet) AS wallet, u_source, u_campaign,
            t_transactions, t_failed, toString(t_gas) AS t_gas_text
       FROM touch FULL JOIN tx_totals ON t_wallet = u_wallet
     SETTINGS join_use_nulls = 0`,
            { ...page, ...totalsParams },
            PageRow,
          )
          .then((both): [Touch[], TxTotal[]] => [
            both.map(({ wallet, u_source, u_campaign }) => ({ u_wallet: wallet, u_source, u_campaign })),
            both.map(({ wallet, t_transactions, t_failed, t_gas_text }) => ({
              t_wallet: wallet,
              t_transactions,
              t_failed,
              t_gas_text,
            })),
          ])
      : await Promise.all([
          touchFirst
            ? null
            : clickhouse.rows(
                `WITH ${touchesSql}
     SELECT u_wallet, u_source, u_campaign FROM touch`,
                page,
                Touch,
              ),
          txsFirst
            ? null
            : clickhouse.rows(
                `WITH ${pageTxTotalsOf(txWindow)}
     SELECT t_wallet, t_transactions, t_failed, toString(t_gas) AS t_gas_text FROM tx_totals`,
                { ...page, ...totalsParams },
                TxTotal,
              ),
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
