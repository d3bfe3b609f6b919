import type { Answer } from '../../../testing/serve-graphql';
import { data } from '../../../testing/serve-graphql';
import type { AnalyticsOverview } from '../api/get-overview';
import type { TransactionDetail } from '../api/get-transaction';
import type { TransactionRow } from '../api/get-transaction-history';

export function buildOverview(overrides: Partial<AnalyticsOverview> = {}): AnalyticsOverview {
  return {
    from: '2025-05-03T00:00:00.000Z',
    to: '2025-06-02T00:00:00.000Z',
    totalTransactions: 12345,
    connectedWallets: 1520,
    newWallets: 38,
    submittedTransactions: 12000,
    failedTransactions: 333,
    attemptedTransactions: 12333,
    transactionFailRate: 0.027,
    dailyActiveWallets: 73.26,
    averageTransactionsPerUserPerDay: 1.2345,
    dailyActiveWalletsTrend: {
      current: 73.26,
      previous: 42.35,
      change: 0.73,
      previousFrom: '2025-04-03T00:00:00.000Z',
      previousTo: '2025-05-03T00:00:00.000Z',
    },
    ...overrides,
  };
}

export function buildRow(overrides: Partial<TransactionRow> = {}): TransactionRow {
  return {
    id: 'tx-1',
    hash: '0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123451234',
    time: '2025-06-01T14:03:27.000Z',
    wallet: '0x1111222233334444555566667777888899990000',
    type: 'Contract',
    status: 'confirmed',
    chainId: 1,
    country: 'DE',
    browser: 'Firefox',
    ...overrides,
  };
}

export function buildDetail(overrides: Partial<TransactionDetail> = {}): TransactionDetail {
  return {
    ...buildRow(),
    from: '0x1111222233334444555566667777888899990000',
    to: '0x7a250d5630b4cf539739df2c5dacb4c659f2488d',
    value: '250000000000000000',
    selector: '0x7ff36ab5',
    functionName: 'swapExactETHForTokens(uint256,address[],address,uint256)',
    revertReason: null,
    nonce: '7',
    gasLimit: '200000',
    gasPrice: null,
    maxFeePerGas: '30000000000',
    maxPriorityFeePerGas: '1500000000',
    gasUsed: '160123',
    effectiveGasPrice: '23400000000',
    fee: '3746878200000000',
    blockNumber: '19876543',
    walletProvider: 'MetaMask',
    os: 'Linux',
    path: '/swap',
    explorerUrl: 'https://etherscan.io/tx/0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123451234',
    stages: [
      { stage: 'requested', time: '2025-06-01T14:03:27.000Z', errorCode: null, errorMessage: null },
      { stage: 'submitted', time: '2025-06-01T14:03:31.000Z', errorCode: null, errorMessage: null },
      { stage: 'confirmed', time: '2025-06-01T14:03:45.000Z', errorCode: null, errorMessage: null },
    ],
    receipts: [
      {
        hash: '0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123451234',
        status: 'confirmed',
        time: '2025-06-01T14:03:45.000Z',
        blockNumber: '19876543',
        gasUsed: '160123',
        effectiveGasPrice: '23400000000',
        fee: '3746878200000000',
        explorerUrl:
          'https://etherscan.io/tx/0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123451234',
      },
    ],
    ...overrides,
  };
}

/** An empty successful answer to each query of the analytics screen, so each test states only what it looks at. */
export const analyticsAnswers: Record<string, Answer> = {
  analyticsOverview: data({ analyticsOverview: buildOverview() }),
  averageGasPrice: data({ averageGasPrice: [] }),
  failedTransactions: data({ failedTransactions: [] }),
  contractFunctions: data({ contractFunctions: [] }),
  walletProviders: data({ walletProviders: [] }),
  countries: data({ countries: [] }),
  operatingSystems: data({ operatingSystems: [] }),
  devices: data({ devices: [] }),
  sources: data({ sources: [] }),
  browsers: data({ browsers: [] }),
  topPages: data({ topPages: [] }),
  topReferrers: data({ topReferrers: [] }),
  transactionHistory: data({ transactionHistory: { rows: [], nextCursor: null, total: 0 } }),
  transaction: data({ transaction: null }),
};
