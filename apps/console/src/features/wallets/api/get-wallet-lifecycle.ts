import { useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { WalletLifecycleQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type WalletRange, walletKeys } from './wallet-keys';

export const WALLET_LIFECYCLE_QUERY = graphql(`
  query WalletLifecycle($projectId: ID!, $from: DateTime, $to: DateTime, $filters: AnalyticsFilters) {
    walletLifecycle(projectId: $projectId, from: $from, to: $to, filters: $filters) {
      current { asOf new resurrected power active atRisk churned powerThreshold }
      previous { asOf new resurrected power active atRisk churned powerThreshold }
    }
  }
`);

export type WalletLifecycle = WalletLifecycleQuery['walletLifecycle'];

export async function getWalletLifecycle(range: WalletRange, signal?: AbortSignal): Promise<WalletLifecycle> {
  const { walletLifecycle } = await graphqlRequest(WALLET_LIFECYCLE_QUERY, {
    variables: { ...range },
    signal,
  });
  return walletLifecycle;
}

export function useWalletLifecycle(range: WalletRange) {
  return useQuery({
    queryKey: walletKeys.of('lifecycle', range.projectId, { ...range }),
    queryFn: ({ signal }) => getWalletLifecycle(range, signal),
  });
}
