import type { AcquisitionFilterOptions } from '../api/get-acquisition-filter-options';
import type { FunnelStep } from '../api/get-acquisition-funnel';
import type { AttributionRow } from '../api/get-attribution';

export function buildFunnel(
  total: number,
  counts: number[],
): { steps: FunnelStep[]; from: string; to: string } {
  const keys = [
    ['totalUsers', 'Total Users'],
    ['haveWallets', 'Have Wallets'],
    ['haveConnectedWallet', 'Have Connected Wallet'],
    ['haveExecutedTransaction', 'Have Executed a Transaction'],
    ['haveExecutedMultipleTransactions', 'Have Executed Multiple TXs'],
    ['signedData', 'Signed Data'],
  ] as const;
  return {
    from: '2025-05-03T00:00:00.000Z',
    to: '2025-06-02T00:00:00.000Z',
    steps: keys.map(([key, label], index) => {
      const users = index === 0 ? total : (counts[index - 1] ?? 0);
      return { key, label, users, share: total === 0 ? null : users / total };
    }),
  };
}

export function buildAttributionRow(
  kind: AttributionRow['kind'],
  value: string | null,
  counts: { newWallets: number; connects: number; transactions: number; sessions: number; users: number },
): AttributionRow {
  const sessionsWithTransaction = Math.min(counts.transactions, counts.sessions);
  const usersWithTransaction = Math.min(counts.transactions, counts.users);
  const sessionsWithConnect = Math.min(counts.connects, counts.sessions);
  const usersWithConnect = Math.min(counts.connects, counts.users);
  const rate = (part: number, whole: number) => (whole === 0 ? null : part / whole);
  return {
    kind,
    value,
    ...counts,
    sessionsWithTransaction,
    usersWithTransaction,
    sessionsWithConnect,
    usersWithConnect,
    transactionSessionRate: rate(sessionsWithTransaction, counts.sessions),
    transactionUserRate: rate(usersWithTransaction, counts.users),
    connectSessionRate: rate(sessionsWithConnect, counts.sessions),
    connectUserRate: rate(usersWithConnect, counts.users),
  };
}

export function buildFilterOptions(
  overrides: Partial<AcquisitionFilterOptions> = {},
): AcquisitionFilterOptions {
  return {
    countries: [
      { value: 'US', users: 40 },
      { value: 'DE', users: 25 },
    ],
    terms: [{ value: 'wallet', users: 12 }],
    sources: [
      { value: 'twitter', users: 30 },
      { value: 'discord', users: 10 },
    ],
    mediums: [],
    campaigns: [],
    contents: [],
    browsers: [],
    walletProviders: [],
    ...overrides,
  };
}
