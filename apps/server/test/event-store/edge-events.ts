import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';

/**
 * Rows where two engines are most likely to differ: blank and padded UTM values, sessions that a range
 * cuts through, a session id shared by two users, events in the same millisecond, missing stages,
 * codes and wallets on the latest occurrence, an incident whose earlier occurrence has another source,
 * and wallets first seen on a non-connect event. All on 2024-03-10 (and one the day before).
 */
export function edgeEvents(projectId: string): EventRow[] {
  let counter = 0;
  const at = (time: string) => Date.parse(`2024-03-10T${time}Z`);
  const row = (user: string, session: string, ts: number, type: string, extra: Partial<EventRow> = {}) => ({
    ...blankRow({
      project_id: projectId,
      id: `edge_${(counter++).toString().padStart(4, '0')}`,
      type,
      ts,
      received_at: ts + 50,
      user_id: user,
      session_id: session,
      origin: 'app.example.com',
    }),
    ...extra,
  });
  const W7 = `0x${'7'.repeat(40)}`;
  const W8 = `0x${'8'.repeat(40)}`;
  const W9 = `0x${'9'.repeat(40)}`;
  const padded = {
    utm_campaign: ' promo ',
    utm_source: '   ',
    utm_medium: '\tmail',
    utm_term: '',
    country: 'NL',
  };
  const incident = 'inc_edge00000000000000000001';
  const failing = 'inc_edge00000000000000000002';
  return [
    // A wallet first carried by a page view the day before, connected on the 10th: not new then.
    row('v9', 'e0', Date.parse('2024-03-09T23:59:59.999Z'), 'page_view', {
      wallet_address: W9,
      browser: 'Brave',
    }),
    row('v1', 'e1', at('10:00:00'), 'page_view', { ...padded, browser: 'Chrome' }),
    row('v1', 'e1', at('10:00:10'), 'wallet_connected', {
      ...padded,
      wallet_address: W7,
      wallet_provider: 'Frame',
    }),
    row('v1', 'e1', at('10:00:10'), 'wallet_connected', {
      ...padded,
      wallet_address: W8,
      wallet_provider: 'Frame',
    }),
    row('v1', 'e1', at('11:00:00'), 'tx', { ...padded, tx_id: 'x1', tx_stage: 'submitted', tx_kind: 'coin' }),
    row('v1', 'e1', at('11:00:00'), 'tx', { ...padded, tx_id: null, tx_stage: 'submitted', tx_kind: 'coin' }),
    row('v1', 'e1', at('11:30:00'), 'tx', { ...padded, tx_id: 'x2', tx_stage: 'dropped', tx_kind: 'coin' }),
    row('v1', 'e1', at('12:30:00'), 'signature', { ...padded, signature_id: 'g', sig_stage: null }),
    // One session id, two users.
    row('v2', 'shared', at('10:30:00'), 'wallet_connected', {
      wallet_address: W9,
      wallet_provider: 'MetaMask',
      utm_campaign: 'b',
      country: 'DE',
    }),
    row('v3', 'shared', at('10:30:00'), 'page_view', { utm_campaign: 'a', country: 'DE', browser: 'Chrome' }),
    row('v3', 'shared', at('10:31:00'), 'signature', {
      signature_id: 'h',
      sig_stage: 'signed',
      utm_campaign: 'a',
    }),
    // The same incident twice in one millisecond, the latest without code or wallet, and before the range
    // from another source.
    row('v4', 'e4', Date.parse('2024-03-09T08:00:00Z'), 'error', {
      incident_id: incident,
      error_source: 'sdk',
      error_message: 'old',
    }),
    row('v4', 'e4', at('11:00:00'), 'error', {
      incident_id: incident,
      error_source: 'window',
      error_message: 'first',
      error_code: 7,
      wallet_address: W7,
    }),
    row('v4', 'e4', at('11:00:00'), 'error', {
      incident_id: incident,
      error_source: 'window',
      error_message: 'second',
      error_code: null,
    }),
    row('v5', 'e5', at('11:00:00'), 'error', {
      incident_id: incident,
      error_source: 'sdk',
      error_message: 'not counted',
    }),
    // A wallet refusing to send, with failures on both sides of the 10 s window and one stage without id.
    row('v6', 'e6', at('11:59:49'), 'tx', { tx_id: 'y0', tx_stage: 'failed' }),
    row('v6', 'e6', at('11:59:50'), 'tx', { tx_id: 'y1', tx_stage: 'failed' }),
    row('v6', 'e6', at('12:00:00'), 'tx', { tx_id: 'y2', tx_stage: 'reverted' }),
    row('v6', 'e6', at('12:00:00'), 'error', {
      incident_id: failing,
      error_source: 'wallet',
      rpc_method: 'eth_sendTransaction',
      error_code: -32000,
      error_message: 'execution reverted: STF 100% _x_',
      wallet_address: W8,
      gas_balance: 170_141_183_460_469_231_731_687_303_715_884_105_727n,
      wallet_nonce: 0n,
    }),
    row('v6', 'e6', at('12:00:10'), 'tx', { tx_id: 'y2', tx_stage: 'reverted' }),
    row('v6', 'e6', at('12:00:10.001'), 'tx', { tx_id: 'y3', tx_stage: 'failed' }),
    row('v6', 'e6', at('12:00:05'), 'tx', { tx_id: null, tx_stage: 'failed' }),
  ];
}
