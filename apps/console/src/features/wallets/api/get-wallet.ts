import type { LifecycleStageName } from '@polyflow/contracts/wallets';
import { useQuery } from '@tanstack/react-query';
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
          eventId time type path walletAddress walletProvider chainId txId txStage txHash txTo selector gasUsed effectiveGasPrice sigStage sigMethod errorSource errorMessage errorCode rpcMethod incidentId gasBalance walletNonce
        } }
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
