// A dapp on viem, written as its docs show: a wallet client over `custom(window.ethereum)`, created when the
// module loads, and a public client over the dapp's own RPC endpoint.
import {
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  type EIP1193Provider,
  http,
} from 'viem';
import { config, demoStoreAbi, expose, OWN_GAS_LIMIT, TRANSFER_WEI } from './shared.ts';

const chain = defineChain({
  id: config.chainId,
  name: 'anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [config.rpcUrl] } },
});
const ethereum = (window as unknown as { ethereum: EIP1193Provider }).ethereum;
// viem keeps the `request` function it finds here: an SDK that wraps it later is never called.
const wallet = createWalletClient({ chain, transport: custom(ethereum) });
const chainClient = createPublicClient({ chain, transport: http(config.rpcUrl) });
const account = () => config.accounts[0] as `0x${string}`;
const receiver = config.accounts[1] as `0x${string}`;
const mined = async (hash: `0x${string}`) => {
  const { status, gasUsed, transactionHash } = await chainClient.waitForTransactionReceipt({
    hash,
    pollingInterval: 100,
  });
  return { hash: transactionHash, status, gasUsed };
};
const setValue = (value: bigint, gas?: bigint) =>
  wallet.writeContract({
    account: account(),
    address: config.contractAddress,
    abi: demoStoreAbi,
    functionName: 'setValue',
    args: [value],
    gas,
  });

expose({
  connect: () => wallet.requestAddresses(),
  transfer: async () =>
    mined(await wallet.sendTransaction({ account: account(), to: receiver, value: TRANSFER_WEI })),
  contractCall: async () => mined(await setValue(42n)),
  // The wallet estimates the gas and refuses to send a call that would revert.
  revertAtEstimation: () => setValue(0n),
  revertOnChain: async () => mined(await setValue(0n, OWN_GAS_LIMIT)),
  rejectedTransfer: () => wallet.sendTransaction({ account: account(), to: receiver, value: TRANSFER_WEI }),
  signMessage: () => wallet.signMessage({ account: account(), message: 'Polyflow e2e: sign in' }),
  switchChain: (id: number) => wallet.switchChain({ id }),
  async batch() {
    const { id } = await wallet.sendCalls({
      account: account(),
      calls: [
        { to: receiver, value: TRANSFER_WEI },
        { to: config.contractAddress, abi: demoStoreAbi, functionName: 'setValue', args: [7n] },
      ],
    });
    const { status, receipts } = await wallet.waitForCallsStatus({ id, pollingInterval: 100 });
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
