/**
 * The demo project's world: who visits, from where, with which wallets and campaigns, what they call,
 * and what goes wrong. Weights are relative. Shapes follow what the SDK and the server's enrichment store.
 */

export const COUNTRIES = [
  ['US', 28],
  ['DE', 9],
  ['GB', 8],
  ['IN', 7],
  ['NG', 5],
  ['BR', 5],
  ['FR', 5],
  ['CA', 4],
  ['TR', 4],
  ['VN', 4],
  ['KR', 3],
  ['JP', 3],
  ['SG', 3],
  ['NL', 3],
  ['ES', 3],
  ['PL', 2],
  ['UA', 2],
  ['AR', 2],
] as const;

export const BROWSERS = [
  ['Chrome', 58],
  ['Brave', 12],
  ['Firefox', 10],
  ['Safari', 9],
  ['Edge', 7],
  ['Opera', 4],
] as const;

export const SYSTEMS: readonly (readonly [{ os: string; device: string }, number])[] = [
  [{ os: 'Windows', device: 'desktop' }, 40],
  [{ os: 'Mac OS', device: 'desktop' }, 30],
  [{ os: 'Linux', device: 'desktop' }, 8],
  [{ os: 'Android', device: 'mobile' }, 12],
  [{ os: 'iOS', device: 'mobile' }, 10],
];

export type WalletBrand = { name: string; rdns: string };
export const WALLETS: readonly (readonly [WalletBrand, number])[] = [
  [{ name: 'MetaMask', rdns: 'io.metamask' }, 52],
  [{ name: 'Coinbase Wallet', rdns: 'com.coinbase.wallet' }, 17],
  [{ name: 'Rabby Wallet', rdns: 'io.rabby' }, 11],
  [{ name: 'Phantom', rdns: 'app.phantom' }, 8],
  [{ name: 'Trust Wallet', rdns: 'com.trustwallet.app' }, 6],
  [{ name: 'Brave Wallet', rdns: 'com.brave.wallet' }, 6],
];

export type Campaign = {
  source: string;
  medium: string;
  campaign: string;
  contents: string[];
  terms: string[];
};
/** null = unattributed traffic (no UTM parameters). */
export const CAMPAIGNS: readonly (readonly [Campaign | null, number])[] = [
  [
    {
      source: 'twitter',
      medium: 'cpc',
      campaign: 'TwitterAds-1',
      contents: ['banner-a', 'banner-b'],
      terms: ['defi', 'swap'],
    },
    22,
  ],
  [
    {
      source: 'discord',
      medium: 'referral',
      campaign: 'DiscordReferals-1',
      contents: ['invite-link'],
      terms: [],
    },
    14,
  ],
  [
    {
      source: 'google',
      medium: 'cpc',
      campaign: 'AdWords-3',
      contents: ['text-ad'],
      terms: ['dex', 'swap crypto', 'yield farming'],
    },
    18,
  ],
  [{ source: 'google', medium: 'organic', campaign: 'Organic-1', contents: [], terms: [] }, 16],
  [null, 30],
];

export const PATHS = ['/', '/swap', '/pool', '/stake', '/portfolio', '/bridge', '/nft'] as const;

export const CHAINS: readonly (readonly [{ chainId: number; gwei: number }, number])[] = [
  // chain id, weight, typical effective gas price in gwei
  [{ chainId: 1, gwei: 22 }, 45],
  [{ chainId: 137, gwei: 60 }, 20],
  [{ chainId: 8453, gwei: 0.08 }, 17],
  [{ chainId: 42161, gwei: 0.02 }, 12],
  [{ chainId: 10, gwei: 0.05 }, 6],
];

export type ContractCall = { contract: string; selector: string; gas: number };
export const CONTRACT_CALLS: readonly (readonly [ContractCall, number])[] = [
  [{ contract: '0x7a250d5630b4cf539739df2c5dacb4c659f2488d', selector: '0x7ff36ab5', gas: 160_000 }, 20],
  [{ contract: '0x7a250d5630b4cf539739df2c5dacb4c659f2488d', selector: '0x38ed1739', gas: 180_000 }, 14],
  [{ contract: '0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45', selector: '0x414bf389', gas: 140_000 }, 16],
  [{ contract: '0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45', selector: '0x5ae401dc', gas: 210_000 }, 6],
  [{ contract: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', selector: '0x095ea7b3', gas: 46_000 }, 18],
  [{ contract: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', selector: '0xa9059cbb', gas: 52_000 }, 8],
  [{ contract: '0x3d9819210a31b4961b30ef54be2aed79b9c9cd3b', selector: '0xa694fc3a', gas: 95_000 }, 7],
  [{ contract: '0x3d9819210a31b4961b30ef54be2aed79b9c9cd3b', selector: '0x3d18b912', gas: 70_000 }, 5],
  [{ contract: '0xbc4ca0eda7647a8ab7c2061c2e118a18a936f13d', selector: '0xa0712d68', gas: 120_000 }, 4],
  // A function no table knows: the console shows its selector.
  [{ contract: '0x5a1c0fe1d2b94b0e8ff6b2a6f3c2a9d1e4b7c801', selector: '0x9a2b8c41', gas: 88_000 }, 2],
];

export const OUTCOMES = [
  ['confirmed', 74],
  ['rejected', 12],
  ['reverted', 6],
  ['failed', 3],
  ['dropped', 3],
  ['replaced', 2],
] as const;

export type PageError = { source: 'window' | 'promise'; message: string; stack: string };
export const PAGE_ERRORS: readonly (readonly [PageError, number])[] = [
  [
    {
      source: 'window',
      message: "TypeError: Cannot read properties of undefined (reading 'balance')",
      stack:
        "TypeError: Cannot read properties of undefined (reading 'balance')\n    at PortfolioView (https://app.demo-dex.xyz/assets/portfolio-3f9a.js:1042:17)\n    at renderWithHooks (https://app.demo-dex.xyz/assets/vendor-81c2.js:4821:22)",
    },
    5,
  ],
  [
    {
      source: 'promise',
      message: 'Error: Failed to fetch price quote (HTTP 502)',
      stack:
        'Error: Failed to fetch price quote (HTTP 502)\n    at fetchQuote (https://app.demo-dex.xyz/assets/swap-a12e.js:211:11)\n    at async SwapForm.onAmountChange (https://app.demo-dex.xyz/assets/swap-a12e.js:388:5)',
    },
    4,
  ],
  [
    {
      source: 'window',
      message: 'ReferenceError: Buffer is not defined',
      stack:
        'ReferenceError: Buffer is not defined\n    at encodePermit (https://app.demo-dex.xyz/assets/permit-77b0.js:58:9)\n    at approveWithPermit (https://app.demo-dex.xyz/assets/permit-77b0.js:120:14)',
    },
    1,
  ],
];

export type WalletError = { code: number; method: string; message: string };
export const WALLET_ERRORS: readonly (readonly [WalletError, number])[] = [
  [
    {
      code: -32002,
      method: 'eth_requestAccounts',
      message: 'Request of type eth_requestAccounts already pending. Please wait.',
    },
    4,
  ],
  [
    {
      code: 4902,
      method: 'wallet_switchEthereumChain',
      message: 'Unrecognized chain ID "0x2105". Try adding the chain using wallet_addEthereumChain first.',
    },
    3,
  ],
  [{ code: -32000, method: 'eth_estimateGas', message: 'execution reverted: STF' }, 2],
];

/** The error a transaction gets when it fails before submission. */
export const INSUFFICIENT_FUNDS: WalletError = {
  code: -32603,
  method: 'eth_sendTransaction',
  message: 'insufficient funds for gas * price + value',
};

/** The pairs the demo's swap quotes and pools name (custom events' properties). */
export const SWAP_PAIRS: readonly (readonly [string, number])[] = [
  ['ETH/USDC', 40],
  ['WBTC/ETH', 15],
  ['ETH/DAI', 12],
  ['ARB/ETH', 10],
  ['USDC/USDT', 23],
];

/** Where the demo's bridge routes go from Ethereum. */
export const BRIDGE_TARGETS: readonly (readonly [string, number])[] = [
  ['base', 45],
  ['arbitrum', 35],
  ['optimism', 20],
];
