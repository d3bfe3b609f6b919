import type { DuckDBConnection } from '@duckdb/node-api';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ContractFunctionRow } from '../../analytics-questions.ts';
import { numberOrNull, rangeParams, rowsOf, transactionsCte } from '../../duckdb/sql.ts';

/** Submitted contract transactions requested in the range, by chain, contract and selector, most called first. */
export async function contractFunctions(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
  limit: number,
): Promise<ContractFunctionRow[]> {
  const rows = await rowsOf(
    connection,
    `WITH ${transactionsCte(['is_submitted', 'chain_id', 'contract', 'selector'], true)}
     SELECT chain_id, contract, coalesce(selector, '0x') AS selector, count(*)::DOUBLE AS calls
       FROM transactions
      WHERE is_submitted AND contract IS NOT NULL
      GROUP BY chain_id, contract, selector
      ORDER BY calls DESC, contract, selector, chain_id
      LIMIT $limit`,
    { ...rangeParams(projectId, range), limit: BigInt(limit) },
  );
  return rows.map((row) => ({
    chainId: numberOrNull(row.chain_id),
    contract: String(row.contract),
    selector: String(row.selector),
    calls: Number(row.calls),
  }));
}
