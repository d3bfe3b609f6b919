import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { WalletProvidersQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

/**
 * The Metrics tab's wallet providers share: distinct connected wallets per wallet provider; key null =
 * unknown. The server sorts by value.
 */
export const WALLET_PROVIDERS_QUERY = graphql(`
  query WalletProviders($projectId: ID!, $from: DateTime, $to: DateTime, $filters: AnalyticsFilters) {
    walletProviders(projectId: $projectId, from: $from, to: $to, filters: $filters) { key value }
  }
`);

export async function getWalletProviders(
  range: AnalyticsRange,
  signal?: AbortSignal,
): Promise<WalletProvidersQuery['walletProviders']> {
  const data = await graphqlRequest(WALLET_PROVIDERS_QUERY, { variables: { ...range }, signal });
  return data.walletProviders;
}

export function walletProvidersQueryOptions(range: AnalyticsRange) {
  return queryOptions({
    queryKey: analyticsKeys.of('walletProviders', range),
    queryFn: ({ signal }) => getWalletProviders(range, signal),
  });
}

export function useWalletProviders(range: AnalyticsRange) {
  return useQuery(walletProvidersQueryOptions(range));
}
