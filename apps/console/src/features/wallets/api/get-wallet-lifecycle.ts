import { type WalletLifecycle, WalletLifecycleSchema } from '@polyflow/contracts/wallets';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type WalletRange, walletKeys } from './wallet-keys';

const COUNTS = 'asOf new resurrected power active atRisk churned powerThreshold';
export const WALLET_LIFECYCLE_QUERY = /* GraphQL */ `
  query WalletLifecycle($projectId: ID!, $from: DateTime, $to: DateTime) {
    walletLifecycle(projectId: $projectId, from: $from, to: $to) {
      current { ${COUNTS} }
      previous { ${COUNTS} }
    }
  }
`;

export async function getWalletLifecycle(range: WalletRange, signal?: AbortSignal): Promise<WalletLifecycle> {
  const { walletLifecycle } = await graphqlRequest(WALLET_LIFECYCLE_QUERY, {
    variables: { ...range },
    schema: z.object({ walletLifecycle: WalletLifecycleSchema }),
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
