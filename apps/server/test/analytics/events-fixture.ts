import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';

/**
 * The hand-built event set of the analytics tests. Every expected figure in the tests is derived by hand
 * from this timeline (docs/analytics.md has the definitions). All times UTC.
 *
 * Wallets: W1 (u1, MetaMask), W2 (u2, Rabby Wallet), W3 (u3, MetaMask), W4 (u4, Coinbase Wallet),
 * W5 (u6, MetaMask). u5 never has a wallet.
 */
export const W1 = `0x${'1'.repeat(40)}`;
export const W2 = `0x${'2'.repeat(40)}`;
export const W3 = `0x${'3'.repeat(40)}`;
export const W4 = `0x${'4'.repeat(40)}`;
export const W5 = `0x${'5'.repeat(40)}`;
export const C1 = `0x${'c1'.repeat(20)}`;
export const C2 = `0x${'c2'.repeat(20)}`;
export const hashOf = (n: number) => `0x${n.toString(16).padStart(2, '0').repeat(32)}`;
const GWEI = 1_000_000_000n;

type UserFacts = {
  country: string | null;
  browser: string;
  os: string;
  wallet: string | null;
  provider: string | null;
};
const USERS: Record<string, UserFacts> = {
  u1: { country: 'DE', browser: 'Chrome', os: 'Linux', wallet: W1, provider: 'MetaMask' },
  u2: { country: 'US', browser: 'Firefox', os: 'Windows', wallet: W2, provider: 'Rabby Wallet' },
  u3: { country: 'US', browser: 'Chrome', os: 'Mac OS', wallet: W3, provider: 'MetaMask' },
  u4: { country: null, browser: 'Safari', os: 'iOS', wallet: W4, provider: 'Coinbase Wallet' },
  u5: { country: 'FR', browser: 'Chrome', os: 'Windows', wallet: null, provider: null },
  u6: { country: 'GB', browser: 'Edge', os: 'Windows', wallet: W5, provider: 'MetaMask' },
};

let counter = 0;

/** One stored row: `withWallet` puts the user's wallet address on it (as the SDK does once connected). */
export function eventRow(
  projectId: string,
  at: string,
  user: keyof typeof USERS,
  type: string,
  extra: Partial<EventRow> & { withWallet?: boolean } = {},
): EventRow {
  const facts = USERS[user] as UserFacts;
  const ts = Date.parse(at);
  if (!Number.isFinite(ts)) throw new Error(`bad time ${at}`);
  const { withWallet = false, ...columns } = extra;
  const row = blankRow({
    project_id: projectId,
    id: `evt_${(counter++).toString().padStart(6, '0')}`,
    type,
    ts,
    received_at: ts + 250,
    user_id: user,
    session_id: `${user}-session`,
    origin: 'app.example.com',
  });
  return {
    ...row,
    path: '/',
    country: facts.country,
    browser: facts.browser,
    os: facts.os,
    device: 'desktop',
    wallet_provider: facts.provider,
    wallet_address: withWallet ? facts.wallet : null,
    ...columns,
  };
}

type TxSpec = {
  txId: string;
  user: keyof typeof USERS;
  kind: 'coin' | 'contract';
  chainId: number;
  to?: string;
  selector?: string;
  hash?: string;
  /** [stage, time, extra columns] in order. */
  stages: [string, string, Partial<EventRow>?][];
};

export function txRows(projectId: string, spec: TxSpec): EventRow[] {
  const wallet = (USERS[spec.user] as UserFacts).wallet;
  return spec.stages.map(([stage, at, extra]) =>
    eventRow(projectId, at, spec.user, 'tx', {
      withWallet: true,
      tx_id: spec.txId,
      tx_stage: stage,
      tx_kind: spec.kind,
      tx_from: wallet,
      tx_to: spec.to ?? `0x${'9'.repeat(40)}`,
      tx_value: spec.kind === 'coin' ? 10n ** 17n : 0n,
      selector: spec.selector ?? null,
      chain_id: spec.chainId,
      gas_limit: 60_000n,
      max_fee_per_gas: 50n * GWEI,
      tx_hash:
        stage === 'requested' || stage === 'rejected' || stage === 'failed' ? null : (spec.hash ?? null),
      nonce: stage === 'requested' ? null : 7n,
      ...extra,
    }),
  );
}

const receipt = (gasUsed: bigint, gwei: bigint, block: bigint): Partial<EventRow> => ({
  gas_used: gasUsed,
  effective_gas_price: gwei * GWEI,
  block_number: block,
});

/** The main project's timeline. */
export function mainProjectEvents(projectId: string): EventRow[] {
  const e = (
    at: string,
    user: keyof typeof USERS,
    type: string,
    extra?: Partial<EventRow> & { withWallet?: boolean },
  ) => eventRow(projectId, at, user, type, extra);
  return [
    // January: W1 connects; W4 is seen on an error event but never connects; W2 connects in the last millisecond.
    e('2024-01-15T10:00:00Z', 'u1', 'page_view'),
    e('2024-01-15T10:01:00Z', 'u1', 'wallet_connected', { withWallet: true }),
    e('2024-01-20T08:00:00Z', 'u4', 'error', {
      withWallet: true,
      error_source: 'wallet',
      error_message: 'insufficient funds',
      error_code: -32603,
    }),
    // T0: requested on Jan 31, mined on Feb 1 (counts in January; its receipt's gas price in February).
    ...txRows(projectId, {
      txId: 'tx-0',
      user: 'u1',
      kind: 'coin',
      chainId: 1,
      hash: hashOf(0),
      stages: [
        ['requested', '2024-01-31T23:50:00Z'],
        ['submitted', '2024-01-31T23:55:00Z'],
        ['confirmed', '2024-02-01T00:05:00Z', receipt(21_000n, 10n, 99n)],
      ],
    }),
    e('2024-01-31T23:59:59.999Z', 'u2', 'wallet_connected', { withWallet: true }),
    // February 1.
    e('2024-02-01T00:00:00.000Z', 'u2', 'wallet_connected', { withWallet: true }),
    e('2024-02-01T09:00:00Z', 'u1', 'wallet_connected', { withWallet: true }),
    ...txRows(projectId, {
      txId: 'tx-1',
      user: 'u1',
      kind: 'contract',
      chainId: 1,
      to: C1,
      selector: '0xa9059cbb',
      hash: hashOf(1),
      stages: [
        ['requested', '2024-02-01T09:10:00Z'],
        ['submitted', '2024-02-01T09:10:05Z'],
        ['confirmed', '2024-02-01T09:11:00Z', receipt(50_000n, 20n, 100n)],
      ],
    }),
    e('2024-02-01T10:00:00Z', 'u5', 'page_view'),
    ...txRows(projectId, {
      txId: 'tx-2',
      user: 'u2',
      kind: 'contract',
      chainId: 137,
      to: C1,
      selector: '0x095ea7b3',
      stages: [
        ['requested', '2024-02-01T12:00:00Z'],
        [
          'rejected',
          '2024-02-01T12:00:10Z',
          { error_code: 4001, error_message: 'User rejected the request.' },
        ],
      ],
    }),
    // February 2.
    e('2024-02-02T08:00:00Z', 'u4', 'wallet_connected', { withWallet: true }),
    ...txRows(projectId, {
      txId: 'tx-4',
      user: 'u4',
      kind: 'coin',
      chainId: 8453,
      stages: [
        ['requested', '2024-02-02T08:05:00Z'],
        ['failed', '2024-02-02T08:05:02Z', { error_code: -32603, error_message: 'insufficient funds' }],
      ],
    }),
    ...txRows(projectId, {
      txId: 'tx-3',
      user: 'u2',
      kind: 'contract',
      chainId: 137,
      to: C2,
      selector: '0x12345678',
      hash: hashOf(3),
      stages: [
        ['requested', '2024-02-02T10:00:00Z'],
        ['submitted', '2024-02-02T10:00:05Z'],
        ['reverted', '2024-02-02T10:01:00Z', receipt(30_000n, 30n, 5000n)],
      ],
    }),
    e('2024-02-02T11:59:00Z', 'u3', 'page_view'),
    e('2024-02-02T12:00:00Z', 'u3', 'wallet_connected', { withWallet: true }),
    ...txRows(projectId, {
      txId: 'tx-5',
      user: 'u3',
      kind: 'contract',
      chainId: 1,
      to: C1,
      selector: '0xa9059cbb',
      hash: hashOf(5),
      stages: [
        ['requested', '2024-02-02T12:10:00Z'],
        ['submitted', '2024-02-02T12:10:05Z'],
        ['confirmed', '2024-02-02T12:11:00Z', receipt(40_000n, 40n, 101n)],
      ],
    }),
    // February 3: a local-chain transaction still pending; u5 visits again.
    e('2024-02-03T11:00:00Z', 'u5', 'page_view'),
    ...txRows(projectId, {
      txId: 'tx-6',
      user: 'u3',
      kind: 'coin',
      chainId: 31337,
      hash: hashOf(6),
      stages: [
        ['requested', '2024-02-03T15:00:00Z'],
        ['submitted', '2024-02-03T15:00:01Z'],
      ],
    }),
    // The leap-day / month boundary: W3 reconnects in the last millisecond of Feb 29, W5 arrives on Mar 1.
    e('2024-02-29T23:59:59.999Z', 'u3', 'wallet_connected', { withWallet: true }),
    e('2024-03-01T00:00:00.000Z', 'u6', 'wallet_connected', { withWallet: true }),
  ];
}

/** Three transactions requested in the same millisecond: pagination must still visit each exactly once. */
export function sameInstantEvents(projectId: string): EventRow[] {
  return ['tx-a', 'tx-b', 'tx-c'].flatMap((txId, index) =>
    txRows(projectId, {
      txId,
      user: 'u1',
      kind: 'coin',
      chainId: 1,
      hash: hashOf(0xa0 + index),
      stages: [
        ['requested', '2024-04-01T12:00:00Z'],
        ['submitted', '2024-04-01T12:00:01Z'],
      ],
    }),
  );
}
