/** Block explorers of well-known chains; local and unknown chains have none (Inspect shows no link). */
const EXPLORERS: ReadonlyMap<number, string> = new Map([
  [1, 'https://etherscan.io'],
  [10, 'https://optimistic.etherscan.io'],
  [56, 'https://bscscan.com'],
  [100, 'https://gnosisscan.io'],
  [137, 'https://polygonscan.com'],
  [250, 'https://ftmscan.com'],
  [324, 'https://explorer.zksync.io'],
  [1101, 'https://zkevm.polygonscan.com'],
  [5000, 'https://explorer.mantle.xyz'],
  [8453, 'https://basescan.org'],
  [42161, 'https://arbiscan.io'],
  [42220, 'https://celoscan.io'],
  [43114, 'https://snowtrace.io'],
  [59144, 'https://lineascan.build'],
  [80002, 'https://amoy.polygonscan.com'],
  [84532, 'https://sepolia.basescan.org'],
  [421614, 'https://sepolia.arbiscan.io'],
  [534352, 'https://scrollscan.com'],
  [11155111, 'https://sepolia.etherscan.io'],
  [11155420, 'https://sepolia-optimism.etherscan.io'],
]);

export function explorerUrlOf(
  chainId: number | null | undefined,
  hash: string | null | undefined,
): string | null {
  if (chainId == null || !hash) return null;
  const base = EXPLORERS.get(chainId);
  return base ? `${base}/tx/${hash}` : null;
}
