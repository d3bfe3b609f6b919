import type { IncidentWalletState } from '@polyflow/contracts/incidents';

type Chain = { name: string; symbol: string };

/** Chains a dapp is likely to be on; everything else shows as "Chain <id>" with the raw unit. */
const CHAINS: Record<number, Chain> = {
  1: { name: 'Ethereum', symbol: 'ETH' },
  5: { name: 'Goerli', symbol: 'ETH' },
  10: { name: 'OP Mainnet', symbol: 'ETH' },
  56: { name: 'BNB Smart Chain', symbol: 'BNB' },
  97: { name: 'BNB Smart Chain Testnet', symbol: 'tBNB' },
  100: { name: 'Gnosis', symbol: 'xDAI' },
  137: { name: 'Polygon', symbol: 'POL' },
  250: { name: 'Fantom', symbol: 'FTM' },
  324: { name: 'zkSync Era', symbol: 'ETH' },
  1101: { name: 'Polygon zkEVM', symbol: 'ETH' },
  1337: { name: 'Localhost', symbol: 'ETH' },
  8453: { name: 'Base', symbol: 'ETH' },
  17000: { name: 'Holesky', symbol: 'ETH' },
  31337: { name: 'Anvil (local)', symbol: 'ETH' },
  42161: { name: 'Arbitrum One', symbol: 'ETH' },
  43114: { name: 'Avalanche C-Chain', symbol: 'AVAX' },
  59144: { name: 'Linea', symbol: 'ETH' },
  80002: { name: 'Polygon Amoy', symbol: 'POL' },
  84532: { name: 'Base Sepolia', symbol: 'ETH' },
  534352: { name: 'Scroll', symbol: 'ETH' },
  11155111: { name: 'Sepolia', symbol: 'ETH' },
};

export function networkName(chainId: number | null): string | null {
  if (chainId == null) return null;
  return CHAINS[chainId]?.name ?? `Chain ${chainId}`;
}

const WEI_DIGITS = 18;
const SHOWN_DECIMALS = 6;

/** 1500000000000000000 → "1.5"; at most 6 decimals, cut (not rounded) so a balance never looks larger. */
export function formatWei(wei: string): string {
  const value = BigInt(wei);
  const unit = 10n ** BigInt(WEI_DIGITS);
  const whole = value / unit;
  const fraction = (value % unit).toString().padStart(WEI_DIGITS, '0').slice(0, SHOWN_DECIMALS);
  const trimmed = fraction.replace(/0+$/, '');
  const wholeText = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (trimmed) return `${wholeText}.${trimmed}`;
  // A dust balance below the shown precision must not read as an empty wallet.
  return value > 0n && whole === 0n ? `< 0.${'0'.repeat(SHOWN_DECIMALS - 1)}1` : wholeText;
}

export type StoredWalletState = {
  gasBalance: string | null;
  nonce: string | null;
  chainId: number | null;
  provider: string | null;
};

/** The wallet state block of the detail screen, from what the SDK stored with the error. */
export function describeWalletState(state: StoredWalletState): IncidentWalletState {
  const chain = state.chainId == null ? undefined : CHAINS[state.chainId];
  const symbol = chain?.symbol ?? null;
  const isDecimal = state.gasBalance != null && /^\d+$/.test(state.gasBalance);
  const amount = isDecimal && state.gasBalance != null ? formatWei(state.gasBalance) : null;
  return {
    gasBalanceWei: isDecimal ? state.gasBalance : null,
    gasBalance: amount == null ? null : symbol ? `${amount} ${symbol}` : `${amount} (native unit)`,
    symbol,
    nonce: state.nonce,
    chainId: state.chainId,
    network: networkName(state.chainId),
    walletProvider: state.provider,
  };
}
