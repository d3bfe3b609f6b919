import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import { type Connection, rangeParams, rowsOf, transactionsCte } from '../../duckdb/sql.ts';
import { type ContractFunctionRow, contractFunctionOf, FunctionRow } from './question.ts';

/** Submitted contract transactions requested in the range, by chain, contract and selector, most called first. */
export async function contractFunctions(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
): Promise<ContractFunctionRow[]> {
  const filter = await eventFilter(connection, projectId, range, filters);
  const rows = await rowsOf(
    connection,
    `${withCtes(filter.cte, transactionsCte(['is_submitted', 'chain_id', 'contract', 'selector'], true, filter.requests, filter.transactions))}
     SELECT chain_id AS chain, contract, coalesce(selector, '0x') AS function_selector, count(*)::DOUBLE AS calls
       FROM transactions
      WHERE is_submitted AND contract IS NOT NULL
      GROUP BY chain_id, contract, selector
      ORDER BY calls DESC, contract, function_selector, chain_id
      LIMIT $limit`,
    { ...rangeParams(projectId, range), ...filter.params, limit: BigInt(limit) },
    FunctionRow,
  );
  return rows.map(contractFunctionOf);
}
