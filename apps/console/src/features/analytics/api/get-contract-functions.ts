import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { ContractFunctionsQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

/** The server's maximum: the card shows the first ten and "Other", Show all lists these (lib/top-n.ts). */
export const CONTRACT_FUNCTIONS_LIMIT = 100;

export const CONTRACT_FUNCTIONS_QUERY = graphql(`
  query ContractFunctions($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int, $filters: AnalyticsFilters) {
    contractFunctions(projectId: $projectId, from: $from, to: $to, limit: $limit, filters: $filters) {
      chainId
      contract
      selector
      functionName
      calls
    }
  }
`);

export type ContractFunctionCalls = ContractFunctionsQuery['contractFunctions'][number];

export async function getContractFunctions(
  range: AnalyticsRange,
  signal?: AbortSignal,
): Promise<ContractFunctionCalls[]> {
  const variables = { ...range, limit: CONTRACT_FUNCTIONS_LIMIT };
  const data = await graphqlRequest(CONTRACT_FUNCTIONS_QUERY, { variables, signal });
  return data.contractFunctions;
}

export function contractFunctionsQueryOptions(range: AnalyticsRange) {
  return queryOptions({
    queryKey: analyticsKeys.of('contractFunctions', range),
    queryFn: ({ signal }) => getContractFunctions(range, signal),
  });
}

export function useContractFunctions(range: AnalyticsRange) {
  return useQuery(contractFunctionsQueryOptions(range));
}
