import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';

/**
 * The hand-built event set of the report tests: the week reported is [2026-11-16, 2026-11-23) (a Monday to
 * the next), the week before it [2026-11-09, 2026-11-16). Every expected figure is derived by hand:
 *
 * Week before: sessions p1 (u1, twitter: connects W1, tx-a confirmed), p2 (u2, newsletter),
 *   p5 (u5, newsletter; incident X once).
 * Week reported: s1 (u1, twitter: connects W1, tx-b confirmed, tx-c reverted; incident Y once),
 *   s2 (u2, twitter: connects W2, tx-d failed; incident X once), s3 (u3, newsletter; incident X twice),
 *   s4 (u4, no UTM).
 *
 * → visits 4 vs 3 (▲ 33%), users 4 vs 3 (▲ 33%), connected wallets 2 vs 1 (▲ 100%), transactions 3 vs 1
 *   (▲ 200%), fail rate 2/3 = 66.7% vs 0% (▲ 66.7 pp); sources twitter 2 vs 1 (▲ 100%), newsletter 1 vs 2
 *   (▼ 50%); incidents X 3 vs 1 (▲ 200%), Y 1 vs 0 (new).
 */
export const WEEK = { from: '2026-11-16T00:00:00.000Z', to: '2026-11-23T00:00:00.000Z' };
export const W1 = `0x${'1'.repeat(40)}`;
export const W2 = `0x${'2'.repeat(40)}`;
const CONTRACT = `0x${'c0'.repeat(20)}`;

let counter = 0;

export function reportEvents(projectId: string): EventRow[] {
  const session = (user: string, id: string, utmSource: string | null, wallet: string | null) => {
    const at = (time: string, type: string, extra: Partial<EventRow> = {}): EventRow => {
      const ts = Date.parse(time);
      return {
        ...blankRow({
          project_id: projectId,
          id: `rep_evt_${(counter++).toString().padStart(6, '0')}`,
          type,
          ts,
          received_at: ts + 100,
          user_id: user,
          session_id: `${projectId.slice(0, 8)}-${id}`,
          origin: 'app.example.com',
        }),
        path: '/',
        country: 'DE',
        browser: 'Chrome',
        os: 'Linux',
        device: 'desktop',
        utm_source: utmSource,
        wallet_provider: wallet ? 'MetaMask' : null,
        wallet_address: type === 'page_view' ? null : wallet,
        ...extra,
      };
    };
    const tx = (txId: string, stages: [string, string][]) =>
      stages.map(([stage, time]) =>
        at(time, 'tx', {
          tx_id: txId,
          tx_stage: stage,
          tx_kind: 'contract',
          tx_from: wallet,
          tx_to: CONTRACT,
          tx_value: 0n,
          selector: '0xa9059cbb',
          chain_id: 1,
          gas_limit: 60_000n,
          tx_hash: stage === 'requested' || stage === 'failed' ? null : `0x${txId.repeat(16)}`,
          nonce: stage === 'requested' ? null : 7n,
        }),
      );
    return { at, tx };
  };
  const incidentX = {
    error_source: 'window',
    error_message: "Uncaught TypeError: Cannot read properties of undefined (reading 'amount')",
    error_stack:
      "TypeError: Cannot read properties of undefined (reading 'amount')\n    at submitSwap (https://app.example.com/assets/app.js:42:7)",
  } satisfies Partial<EventRow>;
  const incidentY = {
    error_source: 'wallet',
    error_code: 4100,
    rpc_method: 'wallet_switchEthereumChain',
    error_message: 'The requested account and/or method has not been authorized by the user.',
  } satisfies Partial<EventRow>;

  const p1 = session('u1', 'p1', 'twitter', W1);
  const p2 = session('u2', 'p2', 'newsletter', null);
  const p5 = session('u5', 'p5', 'newsletter', null);
  const s1 = session('u1', 's1', 'twitter', W1);
  const s2 = session('u2', 's2', 'twitter', W2);
  const s3 = session('u3', 's3', 'newsletter', null);
  const s4 = session('u4', 's4', null, null);
  return [
    // The week before.
    p1.at('2026-11-10T09:00:00Z', 'page_view'),
    p1.at('2026-11-10T09:01:00Z', 'wallet_connected'),
    ...p1.tx('aa01', [
      ['requested', '2026-11-10T09:02:00Z'],
      ['submitted', '2026-11-10T09:02:05Z'],
      ['confirmed', '2026-11-10T09:03:00Z'],
    ]),
    p2.at('2026-11-11T10:00:00Z', 'page_view'),
    p5.at('2026-11-12T11:00:00Z', 'page_view'),
    p5.at('2026-11-12T11:00:30Z', 'error', incidentX),
    // The week reported.
    s1.at('2026-11-17T09:00:00Z', 'page_view'),
    s1.at('2026-11-17T09:01:00Z', 'wallet_connected'),
    s1.at('2026-11-17T09:01:30Z', 'error', incidentY),
    ...s1.tx('bb02', [
      ['requested', '2026-11-17T09:02:00Z'],
      ['submitted', '2026-11-17T09:02:05Z'],
      ['confirmed', '2026-11-17T09:03:00Z'],
    ]),
    ...s1.tx('cc03', [
      ['requested', '2026-11-17T09:10:00Z'],
      ['submitted', '2026-11-17T09:10:05Z'],
      ['reverted', '2026-11-17T09:11:00Z'],
    ]),
    s2.at('2026-11-18T12:00:00Z', 'page_view'),
    s2.at('2026-11-18T12:01:00Z', 'wallet_connected'),
    ...s2.tx('dd04', [
      ['requested', '2026-11-18T12:02:00Z'],
      ['failed', '2026-11-18T12:02:02Z'],
    ]),
    s2.at('2026-11-18T12:05:00Z', 'error', incidentX),
    s3.at('2026-11-19T15:00:00Z', 'page_view'),
    s3.at('2026-11-19T15:00:10Z', 'error', incidentX),
    s3.at('2026-11-19T15:00:20Z', 'error', incidentX),
    s4.at('2026-11-22T23:59:59Z', 'page_view'),
    // After the week: in no figure of the report.
    s4.at('2026-11-23T00:00:00Z', 'page_view'),
  ];
}
