import { type FailedTransactionCost, FailedTransactionCostSchema } from '@polyflow/contracts/wallets';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type WalletRange, walletKeys } from './wallet-keys';

export const FAILED_TRANSACTION_COST_QUERY = /* GraphQL */ `
  query FailedTransactionCost($projectId: ID!, $from: DateTime, $to: DateTime) {
    failedTransactionCost(projectId: $projectId, from: $from, to: $to) {
      chains { chainId gasPaidWei gasBurnedWei burnedShare reverted failedBeforeSubmission }
      rows { day chainId contract selector reverted gasBurnedWei }
    }
  }
`;

export async function getFailedTransactionCost(
  range: WalletRange,
  signal?: AbortSignal,
): Promise<FailedTransactionCost> {
  const { failedTransactionCost } = await graphqlRequest(FAILED_TRANSACTION_COST_QUERY, {
    variables: { ...range },
    schema: z.object({ failedTransactionCost: FailedTransactionCostSchema }),
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
