// Deploys contracts/DemoStore.json from anvil's first (unlocked) dev account.
import { readFileSync } from 'node:fs';
import { rpcCall } from './anvil.mjs';

const artifact = JSON.parse(readFileSync(new URL('../contracts/DemoStore.json', import.meta.url), 'utf8'));

async function waitForReceipt(rpcUrl, hash, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const receipt = await rpcCall(rpcUrl, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The DemoStore deployment ${hash} was not mined within ${timeoutMs} ms`);
}

/** Returns the deployed DemoStore address. */
export async function deployDemoStore(rpcUrl, from) {
  const hash = await rpcCall(rpcUrl, 'eth_sendTransaction', [{ from, data: artifact.bytecode }]);
  const receipt = await waitForReceipt(rpcUrl, hash);
  if (receipt.status !== '0x1' || !receipt.contractAddress)
    throw new Error(`DemoStore deployment failed: ${hash}`);
  return receipt.contractAddress;
}

export const demoStoreAbi = artifact.abi;
