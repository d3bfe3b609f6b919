/** Deploys the DemoStore contract from `from` (an unlocked account) and resolves with its address. */
export function deployDemoStore(rpcUrl: string, from: string): Promise<`0x${string}`>;

/** DemoStore's ABI: `value()` and `setValue(uint256)`, which reverts on 0. */
export const demoStoreAbi: readonly unknown[];
