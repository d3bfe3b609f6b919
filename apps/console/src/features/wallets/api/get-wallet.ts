import type { LifecycleStageName } from '@polyflow/contracts/wallets';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { WalletQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { toStage, walletKeys } from './wallet-keys';

export const WALLET_QUERY = graphql(`
  query Wallet($projectId: ID!, $address: String!) {
    wallet(projectId: $projectId, address: $address) {
      address firstSeen lastSeen firstConnected
      firstTouch { source medium campaign referrer landingPath }
      countries browsers providers chains sessionCount transactions failedBeforeSubmission reverted stage
      gas { chainId gasPaidWei gasBurnedWei burnedShare reverted failedBeforeSubmission }
      sessions { sessionId startedAt endedAt events {
          eventId time type eventName path walletAddress walletProvider chainId txId txStage txHash txTo selector gasUsed effectiveGasPrice sigStage sigMethod errorSource errorMessage errorCode rpcMethod incidentId gasBalance walletNonce
        } }
      olderSessions
    }
  }
`);

export const WALLET_SESSIONS_QUERY = graphql(`
  query WalletSessions($projectId: ID!, $address: String!, $after: String!) {
    walletSessions(projectId: $projectId, address: $address, after: $after) {
      sessions { sessionId startedAt endedAt events {
          eventId time type eventName path walletAddress walletProvider chainId txId txStage txHash txTo selector gasUsed effectiveGasPrice sigStage sigMethod errorSource errorMessage errorCode rpcMethod incidentId gasBalance walletNonce
        } }
      nextCursor
    }
  }
`);

type WalletAnswer = NonNullable<WalletQuery['wallet']>;
export type Wallet = Omit<WalletAnswer, 'stage'> & { stage: LifecycleStageName | null };

/** null: no event of the project carried the address (the "not seen" page). */
export async function getWallet(
  projectId: string,
  address: string,
  signal?: AbortSignal,
): Promise<Wallet | null> {
  const { wallet } = await graphqlRequest(WALLET_QUERY, {
    variables: { projectId, address },
    signal,
  });
  return wallet && { ...wallet, stage: toStage(wallet.stage) };
}

export function useWallet(projectId: string, address: string) {
  return useQuery({
    queryKey: walletKeys.of('wallet', projectId, { address: address.toLowerCase() }),
    queryFn: ({ signal }) => getWallet(projectId, address, signal),
  });
}

/**
 * The wallet's sessions older than its page's (`olderCursor`: the page's olderSessions), 10 at a time,
 * asked only once `asked` (the "Older sessions" button), then one more page per fetchNextPage.
 */
export function useOlderSessions(
  projectId: string,
  address: string,
  olderCursor: string | null,
  asked: boolean,
) {
  return useInfiniteQuery({
    queryKey: walletKeys.of('walletSessions', projectId, {
      address: address.toLowerCase(),
      after: olderCursor,
    }),
    queryFn: async ({ pageParam, signal }) =>
      (
        await graphqlRequest(WALLET_SESSIONS_QUERY, {
          variables: { projectId, address, after: pageParam },
          signal,
        })
      ).walletSessions,
    initialPageParam: olderCursor ?? '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: asked && olderCursor !== null,
  });
}
