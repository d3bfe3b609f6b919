import { useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { FailedTransactionCostQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type WalletRange, walletKeys } from './wallet-keys';

export const FAILED_TRANSACTION_COST_QUERY = graphql(`
  query FailedTransactionCost($projectId: ID!, $from: DateTime, $to: DateTime, $filters: AnalyticsFilters) {
    failedTransactionCost(projectId: $projectId, from: $from, to: $to, filters: $filters) {
      chains { chainId gasPaidWei gasBurnedWei burnedShare reverted failedBeforeSubmission }
      rows { day chainId contract selector functionName reverted gasBurnedWei }
    }
  }
`);

export type FailedTransactionCost = FailedTransactionCostQuery['failedTransactionCost'];

export async function getFailedTransactionCost(
  range: WalletRange,
  signal?: AbortSignal,
): Promise<FailedTransactionCost> {
  const { failedTransactionCost } = await graphqlRequest(FAILED_TRANSACTION_COST_QUERY, {
    variables: { ...range },
    signal,
  });
  return failedTransactionCost;
}

export function useFailedTransactionCost(range: WalletRange) {
  return useQuery({
    queryKey: walletKeys.of('failedCost', range.projectId, { ...range }),
    queryFn: ({ signal }) => getFailedTransactionCost(range, signal),
  });
}
