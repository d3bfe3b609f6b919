// A React dapp on wagmi, written as most are: a config with the injected connector (and the EIP-6963
// wallets wagmi discovers), transports over the dapp's own RPC endpoint, and the hooks.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { defineChain } from 'viem';
import {
  createConfig,
  http,
  useConfig,
  useConnect,
  useConnection,
  useConnectors,
  useSendCalls,
  useSendTransaction,
  useSignMessage,
  useSwitchChain,
  useWriteContract,
  WagmiProvider,
} from 'wagmi';
import { waitForCallsStatus, waitForTransactionReceipt } from 'wagmi/actions';
import { injected } from 'wagmi/connectors';
import { config, demoStoreAbi, expose, OWN_GAS_LIMIT, TRANSFER_WEI } from './shared.ts';

const chainOf = (id: number) =>
  defineChain({
    id,
    name: `anvil ${id}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  });
const home = chainOf(config.chainId);
const other = chainOf(config.chainId + 1);
const wagmiConfig = createConfig({
  chains: [home, other],
  connectors: [injected()],
  transports: { [home.id]: http(config.rpcUrl), [other.id]: http(config.rpcUrl) },
});
const TEST_WALLET_RDNS = 'dev.polyflow.testwallet';
const receiver = config.accounts[1] as `0x${string}`;

function Dapp() {
  const wagmi = useConfig();
  const connection = useConnection();
  const connectors = useConnectors();
  const connect = useConnect();
  const sendTransaction = useSendTransaction();
  const writeContract = useWriteContract();
  const signMessage = useSignMessage();
  const switchChain = useSwitchChain();
  const sendCalls = useSendCalls();

  useEffect(() => {
    const mined = async (hash: `0x${string}`) => {
      const { status, gasUsed, transactionHash } = await waitForTransactionReceipt(wagmi, {
        hash,
        pollingInterval: 100,
      });
      return { hash: transactionHash, status, gasUsed };
    };
    const setValue = (value: bigint, gas?: bigint) =>
      writeContract.mutateAsync({
        address: config.contractAddress,
        abi: demoStoreAbi,
        functionName: 'setValue',
        args: [value],
        gas,
      });
    const transfer = () => sendTransaction.mutateAsync({ to: receiver, value: TRANSFER_WEI });
    expose({
      async connect() {
        // The wallet wagmi discovered through EIP-6963, as a wallet picker would list it.
        const connector = connectors.find((c) => c.id === TEST_WALLET_RDNS) ?? connectors[0];
        if (!connector) throw new Error('no connector');
        const { accounts } = await connect.mutateAsync({ connector });
        return accounts;
      },
      transfer: async () => mined(await transfer()),
      contractCall: async () => mined(await setValue(42n)),
      revertAtEstimation: () => setValue(0n),
      async revertOnChain() {
        const hash = await setValue(0n, OWN_GAS_LIMIT);
        try {
          return await mined(hash);
        } catch (error) {
          // wagmi's receipt action throws for a reverted receipt (after replaying the call for its reason).
          return { hash, error: (error as { shortMessage?: string }).shortMessage };
        }
      },
      rejectedTransfer: transfer,
      signMessage: () => signMessage.mutateAsync({ message: 'Polyflow e2e: sign in' }),
      switchChain: async (chainId: number) => (await switchChain.mutateAsync({ chainId })).id,
      async batch() {
        const { id } = await sendCalls.mutateAsync({
          calls: [
            { to: receiver, value: TRANSFER_WEI },
            { to: config.contractAddress, abi: demoStoreAbi, functionName: 'setValue', args: [7n] },
          ],
        });
        const { status, receipts } = await waitForCallsStatus(wagmi, { id, pollingInterval: 100 });
        return {
          status,
          receipts: receipts?.map(({ transactionHash, status, gasUsed }) => ({
            transactionHash,
            status,
            gasUsed,
          })),
        };
      },
    });
  });

  return (
    <main>
      <h1>wagmi test dapp</h1>
      <p>
        Account: <output data-testid="account">{connection.address ?? 'not connected'}</output>
      </p>
      <p>
        Chain: <output data-testid="chain">{connection.chainId}</output>
      </p>
    </main>
  );
}

const queryClient = new QueryClient();
createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <WagmiProvider config={wagmiConfig}>
      <QueryClientProvider client={queryClient}>
        <Dapp />
      </QueryClientProvider>
    </WagmiProvider>
  </StrictMode>,
);
