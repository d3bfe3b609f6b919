import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { CONTRACT_DAY_AGGREGATES, CONTRACT_STAGES } from '../../clickhouse/contract-days.ts';
import { dayParts } from '../../clickhouse/day-parts.ts';
import { eventFilter, filteredTransactionsCte, withCtes } from '../../clickhouse/event-filter.ts';
import { FROM, rangeParams, TO } from '../../clickhouse/sql.ts';
import { TX_STAGE_WINDOW_MS } from '../../domain.ts';
import { type ContractFunctionRow, contractFunctionOf, FunctionRow } from './question.ts';

/**
 * Submitted contract transactions requested in the range, by chain, contract and selector, most called
 * first. Each transaction (tx_id) is built from its stages within one stage window beyond each end (as
 * `transactionsCte`, sql.ts): its first stage's time, whether one was submitted, the chain of its earliest
 * stage with one, its contract and selector. The window's whole UTC days come from `contract_days`, its
 * partial days from the stages among `events`, folded per transaction (docs/decisions/038), as the
 * transaction outcomes read `transaction_days` (ADR 033). Filtered, a transaction counts when its request's
 * session passes (its request key in `transaction_days`, ADR 111, 115).
 */
export async function contractFunctions(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
): Promise<ContractFunctionRow[]> {
  const window = { fromMs: range.fromMs - TX_STAGE_WINDOW_MS, toMs: range.toMs + TX_STAGE_WINDOW_MS };
  const parts = dayParts(window, 'stages_');
  const selects: string[] = [];
  if (parts.wholeDays)
    selects.push(`SELECT tx_id, first_stage_at, has_submitted, chain_state, contract_state, selector_state
          FROM contract_days
         WHERE project_id = {project:String} AND ${parts.wholeDays}`);
  if (parts.partialDays)
    selects.push(`SELECT assumeNotNull(tx_id) AS tx_id, ${CONTRACT_DAY_AGGREGATES}
          FROM events
         WHERE project_id = {project:String} AND ${CONTRACT_STAGES} AND ${parts.partialDays}
         GROUP BY tx_id`);
  const filter = eventFilter(filters, range);
  // Filtered: the transactions whose request (first stage) was logged in a passing session, found by
  // their request key in `transaction_days` (filteredTransactionsCte, ADR 111, 115); every stage of a
  // transaction repeats its kind, so a contract transaction's first stage is its first contract stage.
  const requests = filter.cte ? filteredTransactionsCte(range) : { cte: '', params: {} };
  const transactions = withCtes(
    filter.cte,
    requests.cte,
    `transactions AS (
       SELECT tx_id,
              min(first_stage_at) AS requested_at,
              max(has_submitted) AS t_is_submitted,
              argMinMerge(chain_state) AS t_chain_id,
              anyMerge(contract_state) AS t_contract,
              anyMerge(selector_state) AS t_selector
         FROM (${selects.join('\n        UNION ALL\n        ')})
        GROUP BY tx_id
       HAVING requested_at >= ${FROM} AND requested_at < ${TO}${
         filter.cte ? ' AND tx_id IN (SELECT tx_id FROM filtered_transactions)' : ''
       }
     )`,
  );
  const rows = await clickhouse.rows(
    `${transactions}
     SELECT t_chain_id AS chain, assumeNotNull(t_contract) AS contract,
            coalesce(t_selector, '0x') AS function_selector, count() AS calls
       FROM transactions
      WHERE t_is_submitted AND t_contract IS NOT NULL
      GROUP BY t_chain_id, t_contract, t_selector
      ORDER BY calls DESC, contract, function_selector, chain NULLS LAST
      LIMIT {limit:UInt32}`,
    { ...rangeParams(projectId, range), ...parts.params, ...filter.params, ...requests.params, limit },
    FunctionRow,
  );
  return rows.map(contractFunctionOf);
}
