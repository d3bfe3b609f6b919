import { blankRow, type EventRow } from '../../event-store/event-row.ts';
import type { RequestFacts } from '../ingest.ts';
import { toBig } from '../storable-numbers.ts';
import type { LegacyContextEvent, TxStatus } from './input-schemas.ts';

/** The 1.0.25 SDK's statuses as stages of the current model. */
export function stageOf(status: TxStatus, hasHash: boolean): string {
  switch (status) {
    case 'PENDING':
      return hasHash ? 'submitted' : 'requested';
    case 'SUCCESS':
      return 'confirmed';
    case 'FAILURE':
      return 'reverted';
    case 'CANCELLED':
      return 'rejected';
  }
}

/**
 * A row from the context every legacy event carries. Browser and OS come from the server's own
 * User-Agent parse (the SDK's copies only fill gaps); its timezone-guessed country is ignored.
 */
export function legacyRow(
  id: string,
  type: string,
  event: LegacyContextEvent,
  facts: RequestFacts,
): EventRow {
  const { tracker, wallet, network, device } = event;
  const row = blankRow({
    project_id: facts.projectId,
    id,
    type,
    // This SDK sends no client time: the event happened when it arrived.
    ts: facts.receivedAt,
    received_at: facts.receivedAt,
    user_id: tracker.userId,
    session_id: tracker.sessionId,
    origin: facts.originHost,
  });
  row.path = tracker.path ?? null;
  row.referrer = tracker.referrer ?? null;
  row.utm_source = tracker.utmSource ?? null;
  row.utm_medium = tracker.utmMedium ?? null;
  row.utm_campaign = tracker.utmCampaign ?? null;
  row.utm_content = tracker.utmContent ?? null;
  row.utm_term = tracker.utmTerm ?? null;
  row.sdk = `polyflow-legacy/${tracker.sdkVersion ?? '1.0.25'}`;
  row.wallet_address = wallet?.walletAddress ?? null;
  // 'none' is how this SDK says no wallet provider was found.
  row.wallet_provider =
    device?.walletProvider && device.walletProvider !== 'none' ? device.walletProvider : null;
  row.chain_id = network?.chainId ?? wallet?.networkId ?? null;
  row.gas_balance = toBig(wallet?.gasBalance, 'event.wallet.gasBalance');
  row.wallet_nonce = toBig(wallet?.nonce, 'event.wallet.nonce');
  row.country = facts.country;
  row.browser = facts.browser ?? device?.browser ?? null;
  row.os = facts.os ?? device?.os ?? null;
  row.device = facts.device;
  return row;
}
