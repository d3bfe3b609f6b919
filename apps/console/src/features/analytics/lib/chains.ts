/** Display names of well-known EVM chains (the server decides the explorer links; this only labels). */
const CHAIN_NAMES: ReadonlyMap<number, string> = new Map([
  [1, 'Ethereum'],
  [10, 'OP Mainnet'],
  [56, 'BNB Smart Chain'],
  [100, 'Gnosis'],
  [137, 'Polygon'],
  [250, 'Fantom'],
  [324, 'zkSync Era'],
  [1101, 'Polygon zkEVM'],
  [5000, 'Mantle'],
  [8453, 'Base'],
  [31337, 'Local (Anvil/Hardhat)'],
  [42161, 'Arbitrum One'],
  [42220, 'Celo'],
  [43114, 'Avalanche C-Chain'],
  [59144, 'Linea'],
  [80002, 'Polygon Amoy'],
  [84532, 'Base Sepolia'],
  [421614, 'Arbitrum Sepolia'],
  [534352, 'Scroll'],
  [11155111, 'Sepolia'],
  [11155420, 'OP Sepolia'],
]);

/** "Ethereum (1)" (or "Ethereum" without the id), "Chain 999", or "Unknown" when the SDK did not see it. */
export function chainLabel(chainId: number | null, withId = true): string {
  if (chainId === null) return 'Unknown chain';
  const name = CHAIN_NAMES.get(chainId);
  if (!name) return `Chain ${chainId}`;
  return withId ? `${name} (${chainId})` : name;
}
