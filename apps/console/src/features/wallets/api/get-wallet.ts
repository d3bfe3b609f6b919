import { type Wallet, WalletSchema } from '@polyflow/contracts/wallets';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/graphql-client';
import { walletKeys } from './wallet-keys';

const EVENT_FIELDS = `eventId time type path walletAddress walletProvider chainId txId txStage txHash txTo selector
  gasUsed effectiveGasPrice sigStage sigMethod errorSource errorMessage errorCode rpcMethod incidentId
  gasBalance walletNonce`;

export const WALLET_QUERY = /* GraphQL */ `
  query Wallet($projectId: ID!, $address: String!) {
    wallet(projectId: $projectId, address: $address) {
      address firstSeen lastSeen firstConnected
      firstTouch { source medium campaign referrer landingPath }
      countries browsers providers chains sessionCount transactions failedBeforeSubmission reverted stage
      gas { chainId gasPaidWei gasBurnedWei burnedShare reverted failedBeforeSubmission }
      sessions { sessionId startedAt endedAt events { ${EVENT_FIELDS} } }
    }
  }
`;

/** null: no event of the project carried the address (the "not seen" page). */
export async function getWallet(
  projectId: string,
  address: string,
  signal?: AbortSignal,
): Promise<Wallet | null> {
  const { wallet } = await graphqlRequest(WALLET_QUERY, {
    variables: { projectId, address },
    schema: z.object({ wallet: WalletSchema.nullable() }),
    signal,
  });
  return wallet;
}

export function useWallet(projectId: string, address: string) {
  return useQuery({
    queryKey: walletKeys.of('wallet', projectId, { address: address.toLowerCase() }),
    queryFn: ({ signal }) => getWallet(projectId, address, signal),
  });
}
