import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count, numberOrNull, text } from '../../rows.ts';

export type ContractFunctionRow = {
  chainId: number | null;
  contract: string;
  selector: string;
  calls: number;
};

/**
 * Submitted contract transactions requested in the range by chain, contract and selector, most called
 * first (docs/analytics.md#charts-and-tables).
 */
export type ContractFunctionsQuestion = {
  contractFunctions(
    projectId: string,
    range: TimeRange,
    limit: number,
    filters?: AnalyticsFilters,
  ): Promise<ContractFunctionRow[]>;
};

export const FunctionRow = z.object({
  chain: numberOrNull,
  contract: text,
  function_selector: text,
  calls: count,
});

export const contractFunctionOf = (row: z.infer<typeof FunctionRow>): ContractFunctionRow => ({
  chainId: row.chain,
  contract: row.contract,
  selector: row.function_selector,
  calls: row.calls,
});
