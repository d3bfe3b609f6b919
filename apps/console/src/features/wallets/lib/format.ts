/** Chain names the wallet screens label (the analytics feature has its own copy: features stay apart). */
const CHAIN_NAMES: ReadonlyMap<number, string> = new Map([
  [1, 'Ethereum'],
  [10, 'OP Mainnet'],
  [56, 'BNB Smart Chain'],
  [137, 'Polygon'],
  [8453, 'Base'],
  [31337, 'Local (Anvil)'],
  [42161, 'Arbitrum One'],
  [11155111, 'Sepolia'],
]);

export function chainName(chainId: number | null): string {
  if (chainId === null) return 'Unknown chain';
  return CHAIN_NAMES.get(chainId) ?? `Chain ${chainId}`;
}

/** Wei as the chain's native unit with up to 6 significant decimals ("0.0013"), exact from the string. */
export function formatNative(wei: string): string {
  const value = BigInt(wei);
  const whole = value / 10n ** 18n;
  const fraction = (value % 10n ** 18n).toString().padStart(18, '0');
  if (value === 0n) return '0';
  const firstDigit = fraction.search(/[1-9]/);
  const decimals = whole > 0n ? 4 : Math.min(18, (firstDigit < 0 ? 0 : firstDigit) + 3);
  const shown = fraction.slice(0, decimals).replace(/0+$/, '');
  return shown ? `${whole}.${shown}` : whole.toString();
}

export const formatCount = (value: number): string => new Intl.NumberFormat('en-US').format(value);

const SYMBOLS: ReadonlyMap<number, string> = new Map([
  [56, 'BNB'],
  [137, 'POL'],
]);

/** The native coin's symbol (ETH on Ethereum and its rollups, which is most chains a dapp uses). */
export const nativeSymbol = (chainId: number | null): string =>
  chainId === null ? 'native' : (SYMBOLS.get(chainId) ?? 'ETH');

export const isWalletAddress = (text: string): boolean => /^0x[0-9a-fA-F]{40}$/.test(text);
