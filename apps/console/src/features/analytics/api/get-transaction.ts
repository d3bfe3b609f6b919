import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { TransactionQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';

/** The full record behind Inspect, by the SDK's transaction id (rows without a hash have one too). */
export const TRANSACTION_QUERY = graphql(`
  query Transaction($projectId: ID!, $id: String) {
    transaction(projectId: $projectId, id: $id) {
      id hash time wallet type status chainId country browser
      from to value selector functionName nonce
      gasLimit gasPrice maxFeePerGas maxPriorityFeePerGas gasUsed effectiveGasPrice fee
      blockNumber walletProvider os path explorerUrl revertReason
      stages { stage time errorCode errorMessage }
      receipts { hash status time blockNumber gasUsed effectiveGasPrice fee explorerUrl }
    }
  }
`);

export type TransactionDetail = NonNullable<TransactionQuery['transaction']>;

export async function getTransaction(
  projectId: string,
  id: string,
  signal?: AbortSignal,
): Promise<TransactionDetail | null> {
  const data = await graphqlRequest(TRANSACTION_QUERY, {
    variables: { projectId, id },
    signal,
  });
  return data.transaction;
}

export function transactionQueryOptions(projectId: string, id: string | null) {
  return queryOptions({
    queryKey: ['projects', projectId, 'analytics', 'transaction', id] as const,
    queryFn: ({ signal }) => getTransaction(projectId, id ?? '', signal),
    enabled: id !== null,
  });
}

export function useTransaction(projectId: string, id: string | null) {
  return useQuery(transactionQueryOptions(projectId, id));
}
