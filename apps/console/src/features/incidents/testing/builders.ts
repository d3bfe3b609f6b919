import type { IncidentDetail } from '../api/get-incident';
import type { IncidentList, IncidentRow } from '../api/get-incidents';

export function buildIncidentRow(overrides: Partial<IncidentRow> = {}): IncidentRow {
  return {
    id: 'inc_7f3a9c',
    type: 'wallet',
    title: 'User rejected the request.',
    severity: 'high',
    firstSeen: '2025-05-28T09:00:00.000Z',
    lastSeen: '2025-06-01T14:03:27.000Z',
    occurrences: 14,
    affectedUsers: 6,
    affectedWallets: 5,
    activeDays: 3,
    failedTransactions: 4,
    wallet: '0x1111222233334444555566667777888899990000',
    code: 4001,
    method: 'eth_sendTransaction',
    status: 'open',
    isRegression: false,
    statusChangedAt: null,
    assignee: null,
    ...overrides,
  };
}

export function buildIncidentList(overrides: Partial<IncidentList> = {}): IncidentList {
  return {
    from: '2025-05-26T00:00:00.000Z',
    to: '2025-06-02T00:00:00.000Z',
    totalIncidents: 23,
    byStatus: { open: 23, resolved: 2, ignored: 1 },
    transactionFailRate: 0.06,
    bySeverity: { low: 12, mid: 7, high: 3, severe: 1 },
    matching: 23,
    rows: [
      buildIncidentRow(),
      buildIncidentRow({
        id: 'inc_b41d02',
        type: 'window',
        title: "TypeError: Cannot read properties of undefined (reading 'balance')",
        severity: 'severe',
        wallet: '0xabcdefabcdefabcdefabcdefabcdefabcdef9876',
        code: null,
        method: null,
      }),
    ],
    nextCursor: null,
    ...overrides,
  };
}

export function buildIncidentDetail(overrides: Partial<IncidentDetail> = {}): IncidentDetail {
  return {
    ...buildIncidentRow({
      id: 'inc_b41d02',
      type: 'window',
      title: "TypeError: Cannot read properties of undefined (reading 'balance')",
      severity: 'severe',
      code: null,
      method: null,
    }),
    from: '2025-05-26T00:00:00.000Z',
    to: '2025-06-02T00:00:00.000Z',
    fingerprint: 'window|typeerror: cannot read properties of undefined|app.js:loadBalance',
    lifetime: {
      firstSeen: '2025-05-28T09:00:00.000Z',
      lastSeen: '2025-06-01T14:03:27.000Z',
      occurrences: 40,
      affectedUsers: 31,
      affectedWallets: 25,
      activeDays: 5,
      failedTransactions: 4,
      activeUsers: 800,
      reach: 31 / 800,
    },
    latest: {
      eventId: 'evt_123',
      time: '2025-06-01T14:03:27.417Z',
      userId: 'user_1',
      sessionId: 'sess_42',
      wallet: '0x1111222233334444555566667777888899990000',
      walletState: {
        gasBalanceWei: '250000000000000000',
        gasBalance: '0.25 ETH',
        symbol: 'ETH',
        nonce: '7',
        chainId: 1,
        network: 'Ethereum',
        walletProvider: 'MetaMask',
      },
      message: "TypeError: Cannot read properties of undefined (reading 'balance')",
      stack:
        "TypeError: Cannot read properties of undefined (reading 'balance')\n    at loadBalance (https://shop.example/app.js:10:5)\n    at onClick (https://shop.example/app.js:42:3)",
      code: null,
      method: null,
      path: '/swap',
      browser: 'Firefox',
      os: 'Linux',
      country: 'DE',
      trail: [
        { time: '2025-06-01T14:02:00.000Z', type: 'page_view', description: 'Viewed /swap' },
        {
          time: '2025-06-01T14:02:30.000Z',
          type: 'wallet_connected',
          description: 'Connected MetaMask 0x1111…0000',
        },
        { time: '2025-06-01T14:03:20.000Z', type: 'tx', description: 'Transaction requested on Ethereum' },
      ],
    },
    ...overrides,
  };
}
