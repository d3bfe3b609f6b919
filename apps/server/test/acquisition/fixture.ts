import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';

/**
 * The hand-built event set of the acquisition tests; every expected figure is derived by hand from it
 * (definitions: docs/acquisition-and-incidents.md). The range under test is [2024-03-01, 2024-03-08).
 *
 * | session | user | day   | campaign | source  | medium | term | content  | country | browser | what happens |
 * |---------|------|-------|----------|---------|--------|------|----------|---------|---------|--------------|
 * | s0      | u6   | 02-20 | –        | –       | –      | –    | –        | GB      | Edge    | connects W6 (before the range) |
 * | s1      | u1   | 03-01 | launch   | twitter | social | defi | –        | DE      | Chrome  | detects MetaMask, connects W1, t1 confirmed, t2 reverted, signs |
 * | s2      | u2   | 03-02 | launch   | discord | social | nft  | –        | US      | Firefox | detects Rabby, connects W2, t3 rejected |
 * | s3      | u2   | 03-04 | –        | –       | –      | –    | –        | US      | Firefox | connects W2 again (Rabby), t4 confirmed |
 * | s4      | u3   | 03-05 | airdrop  | twitter | –      | defi | –        | FR      | Safari  | detects Coinbase Wallet, signature rejected |
 * | s5      | u4   | 03-05 | –        | –       | "  "   | –    | –        | DE      | Chrome  | page views only |
 * | s6      | u5   | 03-06 | launch   | twitter | social | –    | banner-a | DE      | Chrome  | connects W5 (MetaMask, no detect event), t5 confirmed, signs |
 * | s7      | u6   | 03-07 | airdrop  | –       | –      | –    | –        | GB      | Edge    | connects W6 again (MetaMask) |
 * | s8      | u7   | 03-09 | launch   | twitter | –      | –    | –        | DE      | Chrome  | after the range: never counted |
 */
export const W1 = `0x${'1'.repeat(40)}`;
export const W2 = `0x${'2'.repeat(40)}`;
export const W5 = `0x${'5'.repeat(40)}`;
export const W6 = `0x${'6'.repeat(40)}`;

type Session = {
  user: string;
  country: string;
  browser: string;
  utm?: Partial<Record<'source' | 'medium' | 'campaign' | 'content' | 'term', string>>;
};

const SESSIONS: Record<string, Session> = {
  s0: { user: 'u6', country: 'GB', browser: 'Edge' },
  s1: {
    user: 'u1',
    country: 'DE',
    browser: 'Chrome',
    utm: { campaign: 'launch', source: 'twitter', medium: 'social', term: 'defi' },
  },
  s2: {
    user: 'u2',
    country: 'US',
    browser: 'Firefox',
    utm: { campaign: 'launch', source: 'discord', medium: 'social', term: 'nft' },
  },
  s3: { user: 'u2', country: 'US', browser: 'Firefox' },
  s4: {
    user: 'u3',
    country: 'FR',
    browser: 'Safari',
    utm: { campaign: 'airdrop', source: 'twitter', term: 'defi' },
  },
  s5: { user: 'u4', country: 'DE', browser: 'Chrome', utm: { medium: '  ' } },
  s6: {
    user: 'u5',
    country: 'DE',
    browser: 'Chrome',
    utm: { campaign: 'launch', source: 'twitter', medium: 'social', content: 'banner-a' },
  },
  s7: { user: 'u6', country: 'GB', browser: 'Edge', utm: { campaign: 'airdrop' } },
  s8: { user: 'u7', country: 'DE', browser: 'Chrome', utm: { campaign: 'launch', source: 'twitter' } },
};

let counter = 0;

function row(
  projectId: string,
  sessionId: string,
  at: string,
  type: string,
  extra: Partial<EventRow> = {},
): EventRow {
  const session = SESSIONS[sessionId];
  if (!session) throw new Error(`unknown session ${sessionId}`);
  const ts = Date.parse(at);
  const base = blankRow({
    project_id: projectId,
    id: `acq_${(counter++).toString().padStart(6, '0')}`,
    type,
    ts,
    received_at: ts + 100,
    user_id: session.user,
    session_id: `${projectId.slice(0, 8)}-${sessionId}`,
    origin: 'app.example.com',
  });
  return {
    ...base,
    path: '/',
    country: session.country,
    browser: session.browser,
    utm_source: session.utm?.source ?? null,
    utm_medium: session.utm?.medium ?? null,
    utm_campaign: session.utm?.campaign ?? null,
    utm_content: session.utm?.content ?? null,
    utm_term: session.utm?.term ?? null,
    ...extra,
  };
}

const wallet = (address: string | null, provider: string): Partial<EventRow> => ({
  wallet_address: address,
  wallet_provider: provider,
  chain_id: 1,
});
const tx = (txId: string, stage: string, who: Partial<EventRow>): Partial<EventRow> => ({
  ...who,
  tx_id: txId,
  tx_stage: stage,
  tx_kind: 'coin',
  tx_hash: stage === 'requested' || stage === 'rejected' ? null : `0x${txId.padEnd(64, '0').slice(0, 64)}`,
});

export function acquisitionEvents(projectId: string): EventRow[] {
  const r = (sessionId: string, at: string, type: string, extra?: Partial<EventRow>) =>
    row(projectId, sessionId, at, type, extra);
  const mm1 = wallet(W1, 'MetaMask');
  const rabby = wallet(W2, 'Rabby Wallet');
  const mm5 = wallet(W5, 'MetaMask');
  const mm6 = wallet(W6, 'MetaMask');
  return [
    r('s0', '2024-02-20T12:00:00Z', 'page_view'),
    r('s0', '2024-02-20T12:01:00Z', 'wallet_connected', mm6),

    r('s1', '2024-03-01T10:00:00Z', 'page_view'),
    r('s1', '2024-03-01T10:00:01Z', 'wallet_detected', wallet(null, 'MetaMask')),
    r('s1', '2024-03-01T10:01:00Z', 'wallet_connected', mm1),
    r('s1', '2024-03-01T10:02:00Z', 'tx', tx('t1', 'requested', mm1)),
    r('s1', '2024-03-01T10:02:05Z', 'tx', tx('t1', 'submitted', mm1)),
    r('s1', '2024-03-01T10:02:30Z', 'tx', tx('t1', 'confirmed', mm1)),
    r('s1', '2024-03-01T10:03:00Z', 'tx', tx('t2', 'requested', mm1)),
    r('s1', '2024-03-01T10:03:05Z', 'tx', tx('t2', 'submitted', mm1)),
    r('s1', '2024-03-01T10:03:30Z', 'tx', tx('t2', 'reverted', mm1)),
    r('s1', '2024-03-01T10:04:00Z', 'signature', {
      ...mm1,
      signature_id: 'g1',
      sig_stage: 'requested',
      sig_method: 'personal_sign',
    }),
    r('s1', '2024-03-01T10:04:02Z', 'signature', {
      ...mm1,
      signature_id: 'g1',
      sig_stage: 'signed',
      sig_method: 'personal_sign',
    }),

    r('s2', '2024-03-02T09:00:00Z', 'page_view'),
    r('s2', '2024-03-02T09:00:01Z', 'wallet_detected', wallet(null, 'Rabby Wallet')),
    r('s2', '2024-03-02T09:01:00Z', 'wallet_connected', rabby),
    r('s2', '2024-03-02T09:02:00Z', 'tx', tx('t3', 'requested', rabby)),
    r('s2', '2024-03-02T09:02:09Z', 'tx', tx('t3', 'rejected', rabby)),

    r('s3', '2024-03-04T15:00:00Z', 'page_view'),
    r('s3', '2024-03-04T15:00:30Z', 'wallet_connected', rabby),
    r('s3', '2024-03-04T15:01:00Z', 'tx', tx('t4', 'requested', rabby)),
    r('s3', '2024-03-04T15:01:04Z', 'tx', tx('t4', 'submitted', rabby)),
    r('s3', '2024-03-04T15:01:40Z', 'tx', tx('t4', 'confirmed', rabby)),

    r('s4', '2024-03-05T08:00:00Z', 'page_view'),
    r('s4', '2024-03-05T08:00:01Z', 'wallet_detected', wallet(null, 'Coinbase Wallet')),
    r('s4', '2024-03-05T08:02:00Z', 'signature', {
      signature_id: 'g2',
      sig_stage: 'requested',
      sig_method: 'eth_signTypedData_v4',
    }),
    r('s4', '2024-03-05T08:02:07Z', 'signature', {
      signature_id: 'g2',
      sig_stage: 'rejected',
      sig_method: 'eth_signTypedData_v4',
    }),

    r('s5', '2024-03-05T20:00:00Z', 'page_view'),
    r('s5', '2024-03-05T20:05:00Z', 'page_view', { path: '/pools' }),

    r('s6', '2024-03-06T11:00:00Z', 'page_view'),
    r('s6', '2024-03-06T11:00:40Z', 'wallet_connected', mm5),
    r('s6', '2024-03-06T11:02:04Z', 'tx', tx('t5', 'submitted', mm5)),
    r('s6', '2024-03-06T11:02:30Z', 'tx', tx('t5', 'confirmed', mm5)),
    r('s6', '2024-03-06T11:03:00Z', 'signature', {
      ...mm5,
      signature_id: 'g3',
      sig_stage: 'signed',
      sig_method: 'personal_sign',
    }),

    r('s7', '2024-03-07T18:00:00Z', 'page_view'),
    r('s7', '2024-03-07T18:00:20Z', 'wallet_connected', mm6),

    r('s8', '2024-03-09T10:00:00Z', 'page_view'),
    r('s8', '2024-03-09T10:01:00Z', 'wallet_connected', wallet(`0x${'8'.repeat(40)}`, 'MetaMask')),
  ];
}

export const RANGE = { from: '2024-03-01T00:00:00Z', to: '2024-03-08T00:00:00Z' };
