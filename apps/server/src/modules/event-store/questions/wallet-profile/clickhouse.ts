import { z } from 'zod';
import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import {
  RECEIPT_FEE as FEE,
  feeOfReceipts,
  RECEIPT_HAS_FEE as HAS_FEE,
  RECEIPT_KEY,
} from '../../clickhouse/question-sql.ts';
import { EVENT_ROWS, LATEST_STAGE, ms } from '../../clickhouse/sql.ts';
import type { WalletProfile } from '../../wallet-questions.ts';
import { FactsRow, GasRow, profileOf, TouchRow } from './question.ts';

/**
 * A transaction's receipts, as (receipt key, time, event id, fee, reverted), each key's latest report
 * counted once (`feeOfReceipts`, docs/wallets.md); BURNED sums the fees of those reported reverted.
 */
const RECEIPTS = `groupUniqArrayIf((${RECEIPT_KEY}, ts, id, ${FEE}, tx_stage = 'reverted'),
                    tx_stage IN ('confirmed', 'reverted') AND ${HAS_FEE})`;
const BURNED = 'if(r.5, r.4, toInt256(0))';

/** The wallet's stage rows of transactions (`wallet_events`). */
const WALLET_ROWS = `wallet_rows AS (
  SELECT tx_id, id, ts, tx_from, wallet_address, tx_stage, tx_hash, chain_id, gas_used, effective_gas_price
    FROM wallet_events
   WHERE project_id = {project:String} AND wallet = {wallet:String} AND type = 'tx' AND tx_id IS NOT NULL
)`;

/**
 * The wallet's transactions: latest stage, chain, and receipts (each hash at its latest report, by time,
 * then id: docs/wallets.md), folded from the wallet's own rows, except those of
 * `elsewhere` (params `e_0`…), read from `events` between the first and last of their stages. `events`
 * and `wallet_events` without FINAL: every figure is a minimum, maximum or argMin/argMax per key, which an
 * event stored twice (the same row) does not change (ADR 073).
 */
function transactions(elsewhere: number): string {
  const list = Array.from({ length: elsewhere }, (_, index) => `{e_${index}:String}`).join(', ');
  const fromEvents = elsewhere
    ? `UNION ALL
  SELECT tx_id, id, ts, tx_stage, tx_hash, chain_id, gas_used, effective_gas_price FROM ${EVENT_ROWS}
   WHERE project_id = {project:String} AND type = 'tx' AND tx_id IN (${list})
     AND ts >= (SELECT min(ts) FROM transaction_keys WHERE project_id = {project:String} AND key IN (${list}))
     AND ts <= (SELECT max(ts) FROM transaction_keys WHERE project_id = {project:String} AND key IN (${list}))`
    : '';
  return `${WALLET_ROWS},
wallet_txs AS (
  SELECT tx_id AS w_tx FROM wallet_rows
   GROUP BY tx_id
  HAVING argMin(coalesce(tx_from, wallet_address), ts) = {wallet:String}
),
stages AS (
  SELECT tx_id, id, ts, tx_stage, tx_hash, chain_id, gas_used, effective_gas_price FROM wallet_rows
   WHERE tx_id IN (SELECT w_tx FROM wallet_txs)${elsewhere ? ` AND tx_id NOT IN (${list})` : ''}
  ${fromEvents}
),
txs AS (
  SELECT tx_id AS t_id, ${LATEST_STAGE} AS t_status, argMin(chain_id, ts) AS t_chain,
         ${RECEIPTS} AS t_receipts
    FROM stages
   GROUP BY tx_id
)`;
}

/** The gas query over `transactions(elsewhere)`, with their ids as parameters. */
function gasRows(clickhouse: ClickHouse, params: Params, elsewhere: readonly { tx_id: string }[]) {
  const withElsewhere: Params = { ...params };
  elsewhere.forEach((row, index) => {
    withElsewhere[`e_${index}`] = row.tx_id;
  });
  return clickhouse.rows(
    `WITH ${transactions(elsewhere.length)}
     SELECT t_chain AS chain, toString(sum(${feeOfReceipts('t_receipts')})) AS paid,
            toString(sum(${feeOfReceipts('t_receipts', BURNED)})) AS burned,
            countIf(t_status = 'reverted') AS reverted, countIf(t_status = 'failed') AS failed,
            count() AS transactions
       FROM txs GROUP BY t_chain`,
    withElsewhere,
    GasRow,
  );
}

/**
 * The wallet's gas per chain from its own rows, in one query with the check for transactions some stage
 * of which it does not carry (fewer distinct stage ids among its rows than in `transaction_keys`: a
 * receipt logged after it disconnected; usually none): the chains' figures over the others, and the ids of
 * those (`elsewhere`). Read by the wallet's tx ids (its rows' `tx_id`, a prefix read), `transaction_keys`
 * once. Only when some transaction has a stage elsewhere is the gas asked again with them (ADR 102).
 */
const GAS_AND_ELSEWHERE = `WITH ${WALLET_ROWS},
txs AS (
  SELECT tx_id AS t_id, uniqExact(id) AS t_carried, ${LATEST_STAGE} AS t_status, argMin(chain_id, ts) AS t_chain,
         ${RECEIPTS} AS t_receipts
    FROM wallet_rows
   GROUP BY tx_id
  HAVING argMin(coalesce(tx_from, wallet_address), ts) = {wallet:String}
),
stage_counts AS (
  SELECT key AS k_tx, uniqExact(id) AS k_stages FROM transaction_keys
   WHERE project_id = {project:String} AND key = tx_id
     AND key IN (SELECT tx_id FROM wallet_events
                  WHERE project_id = {project:String} AND wallet = {wallet:String} AND type = 'tx' AND tx_id IS NOT NULL)
   GROUP BY key
),
checked AS (
  SELECT t_id, t_status, t_chain, t_receipts, t_carried = k_stages AS t_whole
    FROM txs LEFT JOIN stage_counts ON k_tx = t_id
)
SELECT t_chain AS chain, toString(sumIf(${feeOfReceipts('t_receipts')}, t_whole)) AS paid,
       toString(sumIf(${feeOfReceipts('t_receipts', BURNED)}, t_whole)) AS burned,
       countIf(t_status = 'reverted' AND t_whole) AS reverted, countIf(t_status = 'failed' AND t_whole) AS failed,
       countIf(t_whole) AS transactions, groupArrayIf(t_id, NOT t_whole) AS elsewhere
  FROM checked GROUP BY t_chain
SETTINGS join_use_nulls = 0`;
const GasAndElsewhereRow = GasRow.extend({ elsewhere: z.array(z.string()) });

/**
 * The wallet's gas per chain: its transactions whose stages it carries from its rows, the others from
 * `events` (the whole gas asked again with them; usually there are none). A chain whose transactions all
 * have a stage elsewhere answers no row, as before.
 */
async function gasOf(clickhouse: ClickHouse, params: Params) {
  const rows = await clickhouse.rows(GAS_AND_ELSEWHERE, params, GasAndElsewhereRow);
  const elsewhere = rows.flatMap((row) => row.elsewhere.map((tx_id) => ({ tx_id })));
  if (elsewhere.length > 0) return gasRows(clickhouse, params, elsewhere);
  return rows.map(({ elsewhere: _none, ...row }) => row);
}

export async function walletProfile(
  clickhouse: ClickHouse,
  projectId: string,
  wallet: string,
): Promise<WalletProfile | null> {
  const params = { project: projectId, wallet };
  // The three reads at once (none needs another's answer; a wallet never seen answers no facts, and the
  // rest is dropped): the first touch finds the session of the wallet's first event itself and reads its
  // events by `session_events`' key (ADR 096). The facts hold its active days, from its own rows that
  // carried it as the connected wallet: the days of `wallet_days`, whose sort by day would have this read
  // every day of the project (ADR 084); 'YYYY-MM-DD' sorts as the days do.
  const [[facts], [touch], gas] = await Promise.all([
    clickhouse.rows(
      `SELECT count() AS events, ${ms('min(ts)')} AS first_ms, ${ms('max(ts)')} AS last_ms,
              if(countIf(type = 'wallet_connected' AND wallet_address = {wallet:String}) = 0, NULL,
                 ${ms("minIf(ts, type = 'wallet_connected' AND wallet_address = {wallet:String})")}) AS connected_ms,
              argMin(session_id, (ts, id)) AS first_session,
              groupUniqArray(country) AS countries, groupUniqArray(browser) AS browsers,
              groupUniqArray(wallet_provider) AS providers, groupUniqArray(chain_id) AS chains,
              uniqExact(session_id) AS sessions,
              arraySort(groupUniqArrayIf(toString(toDate(ts, 'UTC')), wallet_address = {wallet:String})) AS days
         FROM wallet_events WHERE project_id = {project:String} AND wallet = {wallet:String}`,
      params,
      FactsRow.extend({ days: z.array(z.string()) }),
    ),
    clickhouse.rows(
      `SELECT argMin(utm_source, (ts, id)) AS source, argMin(utm_medium, (ts, id)) AS medium,
              argMin(utm_campaign, (ts, id)) AS campaign,
              argMinIf(referrer, (ts, id), type = 'page_view') AS referrer,
              argMinIf(path, (ts, id), type = 'page_view') AS landing_path
         FROM session_events
        WHERE project_id = {project:String}
          AND session_id = (SELECT argMin(session_id, (ts, id)) FROM wallet_events
                             WHERE project_id = {project:String} AND wallet = {wallet:String})`,
      params,
      TouchRow,
    ),
    gasOf(clickhouse, params),
  ]);
  if (!facts || facts.events === 0) return null;
  return profileOf(
    facts,
    touch,
    gas,
    facts.days.map((day) => ({ day })),
  );
}
