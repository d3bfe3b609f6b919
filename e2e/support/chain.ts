import { createPublicClient, type Hash, http, type PublicClient, type TransactionReceipt } from 'viem';
import { foundry } from 'viem/chains';
import { type RunningAnvil, startAnvil } from '../../examples/demo-dapp/src/anvil.mjs';

export interface TestChain {
  rpcUrl: string;
  chainId: number;
  /** viem client on the chain, for reading what really happened. */
  client: PublicClient;
  receipt(hash: Hash): Promise<TransactionReceipt>;
  stop(): Promise<void>;
}

/**
 * A fresh anvil chain on a free port (chain id 31337, automine, funded unlocked dev accounts),
 * the same launcher the demo dapp uses. `blockTime` (seconds) adds a block at that interval, as a live
 * chain has. Stop it in `afterAll`.
 */
export async function startChain({ blockTime = 0 }: { blockTime?: number } = {}): Promise<TestChain> {
  const anvil: RunningAnvil = await startAnvil({ port: 0, blockTime });
  const client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
  return {
    rpcUrl: anvil.rpcUrl,
    chainId: foundry.id,
    client,
    receipt: (hash) => client.waitForTransactionReceipt({ hash, timeout: 10_000, pollingInterval: 100 }),
    stop: () => anvil.stop(),
  };
}
