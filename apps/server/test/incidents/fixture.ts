import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';

/**
 * The hand-built error set of the incident tests; every expected figure is derived by hand from it
 * (definitions: docs/acquisition-and-incidents.md). The range under test is [2024-03-01, 2024-03-08).
 *
 * Incidents (occurrences in the range):
 * - A, window "Cannot read properties of undefined (reading 'amount')" at submitSwap, two deploys (bundle
 *   hashes and lines differ): a1 u1/W1 03-02 (t1 reverts a minute later in the session), a2 u2/W2 03-03,
 *   a3 u3 03-05 (no wallet); a0 u9 02-20 before the range. 3 users, 3 days, 1 failed tx → Severe.
 * - B, wallet -32603 in eth_sendTransaction (messages differ): b1 u1/W1 03-02 (t2 failed 2 s before),
 *   b2 u1/W1 03-06 on Polygon (t6 failed 1 s before); b3 03-09 after the range. 1 user, 2 days, 2 failed → High.
 * - C, promise "Request to <url> failed after <n>ms" (two URLs, no stack): c1, c2 u4 03-07. → Low.
 * - D, window, same message as A but at refundOrder: d1 u5/W5 03-04 09:00. → Low.
 * - E, wallet 4100 in wallet_switchEthereumChain: e1 u2/W2, e2 u3, e3 u5/W5, 03-04. 3 users → Mid.
 * Not incidents: the published SDK's own failure (source sdk).
 * Transactions first requested in the range: t1 reverted, t2 failed, t6 failed, t7 confirmed, t8 rejected,
 * t9 confirmed → fail rate 3 / 5 (t8, rejected by the user, is not attempted).
 */
export const W1 = `0x${'1'.repeat(40)}`;
export const W2 = `0x${'2'.repeat(40)}`;
export const W5 = `0x${'5'.repeat(40)}`;
export const CONTRACT = `0x${'c0'.repeat(20)}`;

const WALLETS: Record<string, string | null> = { u1: W1, u2: W2, u3: null, u4: null, u5: W5, u9: null };

let counter = 0;

function row(
  projectId: string,
  user: string,
  session: string,
  at: string,
  type: string,
  extra: Partial<EventRow>,
) {
  const ts = Date.parse(at);
  return {
    ...blankRow({
      project_id: projectId,
      id: `inc_evt_${(counter++).toString().padStart(6, '0')}`,
      type,
      ts,
      received_at: ts + 100,
      user_id: user,
      session_id: `${projectId.slice(0, 8)}-${session}`,
      origin: 'app.example.com',
    }),
    path: '/swap',
    country: 'DE',
    browser: 'Chrome',
    os: 'Linux',
    ...extra,
  } satisfies EventRow;
}

const stackAt = (bundle: string, fn: string, line: number) =>
  `TypeError: Cannot read properties of undefined (reading 'amount')\n    at ${fn} (https://app.example.com/assets/${bundle}:${line}:${line * 3})\n    at HTMLButtonElement.onClick (https://app.example.com/assets/${bundle}:900:12)`;

export function incidentEvents(projectId: string): EventRow[] {
  const on = (user: string, session: string) => {
    const address = WALLETS[user] ?? null;
    const wallet: Partial<EventRow> = address
      ? { wallet_address: address, wallet_provider: 'MetaMask', chain_id: 1 }
      : {};
    return (at: string, type: string, extra: Partial<EventRow> = {}) =>
      row(projectId, user, session, at, type, { ...wallet, ...extra });
  };
  const windowError = (stack: string | null): Partial<EventRow> => ({
    error_source: 'window',
    error_message: "Uncaught TypeError: Cannot read properties of undefined (reading 'amount')",
    error_stack: stack,
  });
  const walletError = (code: number, method: string, message: string, extra: Partial<EventRow> = {}) => ({
    error_source: 'wallet',
    error_code: code,
    rpc_method: method,
    error_message: message,
    ...extra,
  });
  const tx = (id: string, stage: string, extra: Partial<EventRow> = {}): Partial<EventRow> => ({
    tx_id: id,
    tx_stage: stage,
    tx_kind: 'contract',
    tx_to: CONTRACT,
    selector: '0xa9059cbb',
    ...extra,
  });
  const s1 = on('u1', 's1');
  const s2 = on('u2', 's2');
  const s3 = on('u3', 's3');
  const s4 = on('u1', 's4');
  const s5 = on('u4', 's5');
  const s6 = on('u5', 's6');
  const old = on('u9', 's0');
  const later = on('u1', 's10');
  return [
    old('2024-02-20T10:00:00Z', 'error', windowError(stackAt('index-OLD0aaa1.js', 'submitSwap', 5))),

    s1('2024-03-02T09:59:00Z', 'page_view'),
    s1('2024-03-02T10:00:00Z', 'error', windowError(stackAt('index-D8dJ0v3k.js', 'submitSwap', 12))),
    s1('2024-03-02T10:00:30Z', 'tx', tx('t1', 'requested')),
    s1('2024-03-02T10:00:35Z', 'tx', tx('t1', 'submitted', { tx_hash: `0x${'a1'.repeat(32)}` })),
    s1('2024-03-02T10:01:00Z', 'tx', tx('t1', 'reverted', { tx_hash: `0x${'a1'.repeat(32)}` })),
    s1('2024-03-02T10:04:50Z', 'tx', tx('t2', 'requested')),
    s1(
      '2024-03-02T10:04:58Z',
      'tx',
      tx('t2', 'failed', { error_code: -32603, error_message: 'Internal JSON-RPC error.' }),
    ),
    s1(
      '2024-03-02T10:05:00Z',
      'error',
      walletError(-32603, 'eth_sendTransaction', 'Internal JSON-RPC error.'),
    ),

    s2('2024-03-03T12:00:00Z', 'error', windowError(stackAt('index-Zz9YxW8v.js', 'submitSwap', 40))),
    s2('2024-03-03T12:10:00Z', 'tx', tx('t7', 'requested')),
    s2('2024-03-03T12:10:05Z', 'tx', tx('t7', 'submitted', { tx_hash: `0x${'a7'.repeat(32)}` })),
    s2('2024-03-03T12:10:30Z', 'tx', tx('t7', 'confirmed', { tx_hash: `0x${'a7'.repeat(32)}` })),
    s2('2024-03-03T13:00:00Z', 'error', {
      error_source: 'sdk',
      error_message: 'Polyflow SDK: chain list unavailable',
    }),

    s3('2024-03-05T09:00:00Z', 'page_view', { path: '/pools' }),
    s3('2024-03-05T09:00:10Z', 'tx', tx('t8', 'requested')),
    s3(
      '2024-03-05T09:00:12Z',
      'tx',
      tx('t8', 'rejected', { error_code: 4001, error_message: 'User rejected the request.' }),
    ),
    s3('2024-03-05T09:01:00Z', 'error', windowError(stackAt('index-Zz9YxW8v.js', 'submitSwap', 41))),

    on('u5', 's6b')(
      '2024-03-04T09:00:00Z',
      'error',
      windowError(stackAt('index-Zz9YxW8v.js', 'refundOrder', 77)),
    ),

    on('u2', 's7')(
      '2024-03-04T11:00:00Z',
      'error',
      walletError(4100, 'wallet_switchEthereumChain', 'Unauthorized'),
    ),
    on('u3', 's8')(
      '2024-03-04T11:30:00Z',
      'error',
      walletError(4100, 'wallet_switchEthereumChain', 'Not authorized'),
    ),
    s6('2024-03-04T12:00:00Z', 'error', walletError(4100, 'wallet_switchEthereumChain', 'Unauthorized')),

    s4('2024-03-06T13:58:00Z', 'page_view', { path: '/swap', title: 'Swap' }),
    s4('2024-03-06T13:58:30Z', 'wallet_connected', { chain_id: 137 }),
    s4('2024-03-06T13:59:00Z', 'chain_changed', { chain_id: 137 }),
    s4('2024-03-06T13:59:50Z', 'tx', tx('t6', 'requested', { chain_id: 137 })),
    s4(
      '2024-03-06T13:59:59Z',
      'tx',
      tx('t6', 'failed', { chain_id: 137, error_code: -32603, error_message: 'execution reverted' }),
    ),
    s4(
      '2024-03-06T14:00:00Z',
      'error',
      walletError(-32603, 'eth_sendTransaction', 'execution reverted', {
        chain_id: 137,
        gas_balance: 137_500_000_000_000_000_000n,
        wallet_nonce: 12n,
      }),
    ),

    s5('2024-03-07T07:59:00Z', 'tx', tx('t9', 'requested')),
    s5('2024-03-07T07:59:05Z', 'tx', tx('t9', 'submitted', { tx_hash: `0x${'a9'.repeat(32)}` })),
    s5('2024-03-07T07:59:30Z', 'tx', tx('t9', 'confirmed', { tx_hash: `0x${'a9'.repeat(32)}` })),
    s5('2024-03-07T08:00:00Z', 'error', {
      error_source: 'promise',
      error_message: 'Request to https://rpc.example.com/v1/abc failed after 3000ms',
    }),
    s5('2024-03-07T08:00:30Z', 'error', {
      error_source: 'promise',
      error_message: 'Request to https://rpc.other.io/x?key=2 failed after 5000ms',
    }),

    later(
      '2024-03-09T10:00:00Z',
      'error',
      walletError(-32603, 'eth_sendTransaction', 'Internal JSON-RPC error.'),
    ),
  ];
}

export const RANGE = { from: '2024-03-01T00:00:00Z', to: '2024-03-08T00:00:00Z' };
