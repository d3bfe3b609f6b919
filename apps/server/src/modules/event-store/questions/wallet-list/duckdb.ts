import { z } from 'zod';
import { eventFilter, FILTERED_WALLETS_CTE } from '../../duckdb/event-filter.ts';
import {
  type Connection,
  FROM,
  IN_RANGE,
  type Params,
  rangeParams,
  rowsOf,
  STAGE_KEY,
  STAGE_WINDOW,
  TO,
} from '../../duckdb/sql.ts';
import {
  HAS_SEVERAL_RECEIPTS,
  IS_SHORT,
  LATER_RECEIPT_IS_CONFIRMED,
  latestReceiptsOfEvents,
} from '../../duckdb/transaction-summaries.ts';
import { LIFECYCLE_WINDOWS, type WalletListQuery, type WalletListRow } from '../../wallet-questions.ts';
import { walletFactsDuckdb } from '../lifecycle-stages/duckdb.ts';
import { GROUP_SQL, NO_POWER, stageSql } from '../lifecycle-stages/question.ts';
import { afterCursor, ListRow, orderBy, walletListRowOf } from './question.ts';

/**
 * A transaction that `transaction_summaries` does not answer (rare): stages a stage window apart or more
 * (not IS_SHORT), or several receipt hashes. Asked of the events by id.
 */
const LongerRow = z.object({ tx_id: z.string() });

/**
 * The Power threshold of `powerThreshold` (lifecycle-stages/question.ts) over the facts' CTE
 * `wallet_facts`, as SQL of one row (`threshold`, NULL without a candidate): the candidates' (GROUP_SQL
 * 'recent') n28 sorted descending (`sortedDesc`, a 1-based array of the engine), the ⌈N/10⌉-th of them,
 * at least 2; N × 0.1 in doubles, as TypeScript rounds it.
 */
const POWER_OF_FACTS = (sortedDesc: string) => `
       SELECT CASE WHEN count(*) = 0 THEN NULL
                   ELSE greatest(${LIFECYCLE_WINDOWS.powerMinDays}, ${sortedDesc}[CAST(ceil(CAST(count(*) AS DOUBLE) * CAST(${LIFECYCLE_WINDOWS.powerShare} AS DOUBLE)) AS BIGINT)]) END AS threshold
         FROM wallet_facts WHERE (${GROUP_SQL}) = 'recent'`;

export async function walletList(
  connection: Connection,
  projectId: string,
  query: WalletListQuery,
): Promise<WalletListRow[]> {
  // The stage column and filter: the lifecycle's facts as of the as-of day of the project's zone.
  const facts = walletFactsDuckdb(query.asOfDay, query.timeZone);
  const params: Params = {
    project: projectId,
    from: BigInt(query.range.fromMs),
    to: BigInt(query.range.toMs),
    ...facts.params,
    limit: BigInt(query.limit),
  };
  // The Power threshold given, or derived in the same query from the facts it reads anyway (ADR 102).
  const derivePower = query.powerThreshold === undefined;
  if (!derivePower) params.power = BigInt(query.powerThreshold ?? NO_POWER);
  const seenFilters: string[] = [];
  // The Analytics filters: the wallets a passing session carried in the range (docs/wallets.md).
  const filter = await eventFilter(connection, projectId, query.range, query.filters);
  if (filter.cte) {
    seenFilters.push(`wallet_address IN (SELECT wallet FROM filtered_wallets)`);
    Object.assign(params, filter.params);
  }
  if (query.search) {
    seenFilters.push('starts_with(wallet_address, $search)');
    params.search = query.search;
  }
  // The chain and country filters keep a wallet with such an event in the range (both: one event with
  // both); its last seen stays its latest event in the range on any chain, from anywhere (docs/wallets.md):
  // a condition on its group.
  const seenMatch: string[] = [];
  if (query.chainId !== null) {
    seenMatch.push('chain_id = $chain');
    params.chain = BigInt(query.chainId);
  }
  if (query.country !== null) {
    seenMatch.push('country = $country');
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
  // Sorted by first or last seen, the transactions are summed for the page's wallets alone, after the sort
  // and the limit (ADR 102).
  const txsLater = query.sort === 'last_seen' || query.sort === 'first_seen';
  // Transactions whose stages lie a stage window apart or more, or with several receipt hashes (rare): asked of
  // the events, by id.
  const longer = await rowsOf(
    connection,
    `SELECT tx_id FROM transaction_summaries
      WHERE project_id = $project AND (NOT (${IS_SHORT}) OR ${HAS_SEVERAL_RECEIPTS})
        AND requested_at < ${TO} AND last_ts >= ${FROM}`,
    rangeParams(projectId, query.range),
    LongerRow,
  );
  const ids: Params = {};
  longer.forEach((row, index) => {
    ids[`tx_${index}`] = row.tx_id;
  });
  const longerIds = `${STAGE_WINDOW} AND tx_id IN (${Object.keys(ids)
    .map((name) => `$${name}`)
    .join(', ')})`;
  const fromEvents =
    longer.length === 0
      ? ''
      : `UNION ALL
       SELECT l.wallet, l.status, coalesce(r.fee, 0) AS fee
         FROM (SELECT tx_id, arg_min(coalesce(tx_from, wallet_address), ts) AS wallet,
                      arg_max(tx_stage, ${STAGE_KEY}) AS status
                 FROM events
                WHERE project_id = $project AND type = 'tx' AND ${longerIds}
                GROUP BY tx_id
               HAVING min(ts) >= ${FROM} AND min(ts) < ${TO}) AS l
         LEFT JOIN (SELECT tx_id, sum(fee) AS fee FROM (${latestReceiptsOfEvents(`project_id = $project AND ${longerIds}`)})
                     GROUP BY tx_id) AS r USING (tx_id)`;
  // The transactions requested in the range and their totals per sender (every sender's: the join keeps the
  // listed ones; or the page's wallets' alone).
  const txCtes = `txs AS (
       SELECT sender AS wallet, status,
              coalesce(CASE WHEN ${LATER_RECEIPT_IS_CONFIRMED} THEN confirmed_fee ELSE reverted_fee END, 0) AS fee
         FROM transaction_summaries
        WHERE project_id = $project AND requested_at >= ${FROM} AND requested_at < ${TO} AND ${IS_SHORT}
          AND NOT coalesce(${HAS_SEVERAL_RECEIPTS}, false)
       ${fromEvents}
     ),
     tx_totals AS (
       SELECT wallet, count(*) AS transactions, count(*) FILTER (WHERE status IN ('failed', 'reverted')) AS failed,
              sum(fee) AS gas_paid
         FROM txs ${txsLater ? 'WHERE wallet IN (SELECT list_wallet FROM page) ' : ''}GROUP BY wallet
     )`;
  // Each part of a row is joined before the sort and the limit only when the filters or the sort read it,
  // else to the page's wallets alone. The facts also drop a wallet with none (no event before the as-of
  // day's end): only a range that runs past that day can hold one.
  const factsFirst = query.stage !== null || query.range.toMs > facts.endMs;
  const firstsFirst = query.sort === 'first_seen' || query.source !== null || query.campaign !== null;
  const parts = (wallet: string, first: boolean) => {
    const taken = [
      {
        before: firstsFirst,
        columns: 'epoch_ms(f.first_seen) AS first_ms, f.source, f.campaign',
        join: `JOIN firsts f ON f.wallet = ${wallet}`,
      },
      {
        before: factsFirst,
        columns: `${stageSql(derivePower ? `coalesce(p.threshold, ${NO_POWER})` : '$power::BIGINT').replaceAll(/\b(age|n28|n14|n_before)\b/g, 'w.$1')} AS stage${derivePower ? ', p.threshold AS power_threshold' : ''}`,
        join: `JOIN wallet_facts w ON w.wallet = ${wallet}${derivePower ? ' CROSS JOIN power p' : ''}`,
      },
      {
        before: !txsLater,
        columns: `coalesce(t.transactions, 0) AS transactions, coalesce(t.failed, 0) AS failed,
              coalesce(t.gas_paid, 0)::HUGEINT AS gas_paid`,
        join: `LEFT JOIN tx_totals t ON t.wallet = ${wallet}`,
      },
    ].filter((part) => part.before === first);
    return {
      columns: taken.map((part) => `, ${part.columns}`).join(''),
      joins: taken.map((part) => part.join).join('\n'),
    };
  };
  const before = parts('s.wallet', true);
  const after = parts('page.list_wallet', false);
  const rows = await rowsOf(
    connection,
    `${
      filter.cte
        ? `WITH ${filter.cte},
     ${FILTERED_WALLETS_CTE},
     `
        : 'WITH '
    }seen AS (
       SELECT wallet_address AS wallet, epoch_ms(max(ts)) AS last_ms
         FROM events
        WHERE ${IN_RANGE} AND wallet_address IS NOT NULL${seenFilters.map((f) => ` AND ${f}`).join('')}
        GROUP BY wallet_address${seenMatch.length ? `\n       HAVING bool_or(${seenMatch.join(' AND ')})` : ''}
     ),
     firsts AS (
       SELECT wallet_address AS wallet, first_seen, first_source AS source, first_campaign AS campaign
         FROM wallet_first_touches WHERE project_id = $project
     ),
     ${txsLater ? '' : `${txCtes},`}
     ${
       derivePower
         ? `${facts.sql.replace(/^wallet_facts AS \(/, 'wallet_facts AS MATERIALIZED (')},
     power AS (${POWER_OF_FACTS("list_sort(list(n28), 'DESC')")})`
         : facts.sql
     },
     listed AS (
       SELECT s.wallet AS list_wallet, s.last_ms${before.columns}
         FROM seen s ${before.joins}
     ),
     page AS (
       SELECT * FROM listed
        ${listFilters.length ? `WHERE ${listFilters.join(' AND ')}` : ''}
        ORDER BY ${orderBy(query)}
        LIMIT $limit
     )${txsLater ? `,\n     ${txCtes}` : ''}
     SELECT list_wallet, first_ms, last_ms, transactions, failed, gas_paid::VARCHAR AS gas_paid_text, stage,
            source, campaign${derivePower ? ', power_threshold' : ''}
       FROM (SELECT page.*${after.columns} FROM page ${after.joins})
      ORDER BY ${orderBy(query)}`,
    { ...params, ...ids },
    ListRow,
  );
  return rows.map(walletListRowOf);
}
