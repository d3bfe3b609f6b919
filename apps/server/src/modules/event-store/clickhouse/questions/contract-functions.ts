import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ContractFunctionRow } from '../../analytics-questions.ts';
import type { ClickHouse } from '../client.ts';
import { rangeParams, transactionsCte } from '../sql.ts';

const FunctionRow = z.object({
  chain: z.coerce.number().nullable(),
  contract: z.string(),
  function_selector: z.string(),
  calls: z.coerce.number(),
});

/** Submitted contract transactions requested in the range, by chain, contract and selector, most called first. */
export async function contractFunctions(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  limit: number,
): Promise<ContractFunctionRow[]> {
  const rows = await clickhouse.rows(
    `WITH ${transactionsCte(['is_submitted', 'chain_id', 'contract', 'selector'], true)}
     SELECT t_chain_id AS chain, assumeNotNull(t_contract) AS contract,
            coalesce(t_selector, '0x') AS function_selector, count() AS calls
       FROM transactions
      WHERE t_is_submitted AND t_contract IS NOT NULL
      GROUP BY t_chain_id, t_contract, t_selector
      ORDER BY calls DESC, contract, function_selector, chain NULLS LAST
      LIMIT {limit:UInt32}`,
    { ...rangeParams(projectId, range), limit },
    FunctionRow,
  );
  return rows.map((row) => ({
    chainId: row.chain,
    contract: row.contract,
    selector: row.function_selector,
    calls: row.calls,
  }));
}
