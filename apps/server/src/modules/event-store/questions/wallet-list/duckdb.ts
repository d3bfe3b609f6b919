import {
  type Connection,
  FROM,
  RECEIPT_HAS_FEE as HAS_FEE,
  IN_RANGE,
  type Params,
  rowsOf,
  STAGE_KEY,
  STAGE_WINDOW,
  TO,
} from '../../duckdb/sql.ts';
import type { WalletListQuery, WalletListRow } from '../../wallet-questions.ts';
import { WALLET_FACTS_DUCKDB } from '../lifecycle-stages/duckdb.ts';
import { NO_POWER, stageSql } from '../lifecycle-stages/question.ts';
import { afterCursor, ListRow, orderBy, walletListRowOf } from './question.ts';

/** CASE, not FILTER alone: DuckDB would multiply an unbounded pair before filtering it out. */
const FEE = `CASE WHEN ${HAS_FEE} THEN gas_used * effective_gas_price END`;

export async function walletList(
  connection: Connection,
  projectId: string,
  query: WalletListQuery,
): Promise<WalletListRow[]> {
  const params: Params = {
    project: projectId,
    from: BigInt(query.range.fromMs),
    to: BigInt(query.range.toMs),
    asof: query.asOfDay,
    power: BigInt(query.powerThreshold ?? NO_POWER),
    limit: BigInt(query.limit),
  };
  const seenFilters: string[] = [];
  if (query.search) {
    seenFilters.push('starts_with(wallet_address, $search)');
    params.search = query.search;
  }
  if (query.chainId !== null) {
    seenFilters.push('chain_id = $chain');
    params.chain = BigInt(query.chainId);
  }
  if (query.country !== null) {
    seenFilters.push('country = $country');
    params.country = query.country;
  }
  const listFilters: string[] = [];
  if (query.stage) {
    listFilters.push('stage = $stage');
    params.stage = query.stage;
  }
  if (query.source !== null) {
    listFilters.push('source = $source');
    params.source = query.source;
  }
  if (query.campaign !== null) {
    listFilters.push('campaign = $campaign');
    params.campaign = query.campaign;
  }
  if (query.after) {
    const value = query.sort === 'gas_paid' ? '$after_value::HUGEINT' : '$after_value::BIGINT';
    listFilters.push(afterCursor(query, value, '$after_wallet'));
    params.after_value = query.after.value;
    params.after_wallet = query.after.wallet;
  }
  const rows = await rowsOf(
    connection,
    `WITH seen AS (
       SELECT wallet_address AS wallet, epoch_ms(max(ts)) AS last_ms
         FROM events
        WHERE ${IN_RANGE} AND wallet_address IS NOT NULL${seenFilters.map((f) => ` AND ${f}`).join('')}
        GROUP BY wallet_address
     ),
     firsts AS (
       SELECT wallet_address AS wallet, first_seen FROM wallet_firsts
        WHERE project_id = $project AND wallet_address IN (SELECT wallet FROM seen)
     ),
     touch AS (
       SELECT e.wallet_address AS wallet, arg_min(e.utm_source, e.id) AS source,
              arg_min(e.utm_campaign, e.id) AS campaign
         FROM events e JOIN firsts f ON e.wallet_address = f.wallet AND e.ts = f.first_seen
        WHERE e.project_id = $project
        GROUP BY e.wallet_address
     ),
     txs AS (
       SELECT arg_min(coalesce(tx_from, wallet_address), ts) AS wallet, arg_max(tx_stage, ${STAGE_KEY}) AS status,
              coalesce(arg_max(${FEE}, ts) FILTER (WHERE tx_stage = 'confirmed' AND ${HAS_FEE}), 0)
                + coalesce(arg_max(${FEE}, ts) FILTER (WHERE tx_stage = 'reverted' AND ${HAS_FEE}), 0) AS fee
         FROM events
        WHERE project_id = $project AND type = 'tx' AND tx_id IS NOT NULL AND ${STAGE_WINDOW}
        GROUP BY tx_id
       HAVING min(ts) >= ${FROM} AND min(ts) < ${TO}
     ),
     tx_totals AS (
       SELECT wallet, count(*) AS transactions, count(*) FILTER (WHERE status IN ('failed', 'reverted')) AS failed,
              sum(fee) AS gas_paid
         FROM txs WHERE wallet IN (SELECT wallet FROM seen) GROUP BY wallet
     ),
     ${WALLET_FACTS_DUCKDB},
     listed AS (
       SELECT s.wallet AS list_wallet, epoch_ms(f.first_seen) AS first_ms, s.last_ms,
              coalesce(t.transactions, 0) AS transactions, coalesce(t.failed, 0) AS failed,
              coalesce(t.gas_paid, 0)::HUGEINT AS gas_paid,
              ${stageSql('$power::BIGINT').replaceAll(/\b(age|n28|n14|n_before)\b/g, 'w.$1')} AS stage,
              touch.source, touch.campaign
         FROM seen s
         JOIN firsts f ON f.wallet = s.wallet
         JOIN wallet_facts w ON w.wallet = s.wallet
         LEFT JOIN tx_totals t ON t.wallet = s.wallet
         LEFT JOIN touch ON touch.wallet = s.wallet
     )
     SELECT list_wallet, first_ms, last_ms, transactions, failed, gas_paid::VARCHAR AS gas_paid_text, stage,
            source, campaign
       FROM listed
      ${listFilters.length ? `WHERE ${listFilters.join(' AND ')}` : ''}
      ORDER BY ${orderBy(query)}
      LIMIT $limit`,
    params,
    ListRow,
  );
  return rows.map(walletListRowOf);
}
