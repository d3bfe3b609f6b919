import type { TrailEvent } from '@polyflow/contracts/incidents';
import type { StoredTrailEvent } from '../event-store/incident-questions.ts';
import { networkName } from './wallet-state.ts';

const MAX_DESCRIPTION = 200;

/** `0x1234…abcd`, the console's way of showing hashes and addresses. */
export const shorten = (hex: string): string =>
  hex.length > 12 ? `${hex.slice(0, 6)}…${hex.slice(-4)}` : hex;

const clip = (text: string) =>
  text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;

const TX_STAGE_WORDS: Record<string, string> = {
  requested: 'requested',
  rejected: 'rejected by the user',
  failed: 'failed to send',
  submitted: 'submitted',
  confirmed: 'confirmed',
  reverted: 'reverted',
  replaced: 'replaced',
  dropped: 'dropped',
};

function describeTx(event: StoredTrailEvent): string {
  const kind = event.txKind === 'contract' ? 'Contract call' : 'Transfer';
  const target = event.txTo ? ` to ${shorten(event.txTo)}` : '';
  const selector = event.txKind === 'contract' && event.selector ? ` (${event.selector})` : '';
  const stage = TX_STAGE_WORDS[event.txStage ?? ''] ?? event.txStage ?? 'updated';
  const hash = event.txHash ? ` ${shorten(event.txHash)}` : '';
  const why =
    event.errorMessage && (event.txStage === 'failed' || event.txStage === 'rejected')
      ? `: ${event.errorCode != null ? `${event.errorCode} ` : ''}${event.errorMessage}`
      : '';
  return `${kind}${target}${selector} ${stage}${hash}${why}`;
}

function describeError(event: StoredTrailEvent): string {
  const message = event.errorMessage ?? '';
  if (event.errorSource === 'wallet') {
    const code = event.errorCode != null ? ` ${event.errorCode}` : '';
    const method = event.rpcMethod ? ` in ${event.rpcMethod}` : '';
    return `Wallet error${code}${method}: ${message}`;
  }
  if (event.errorSource === 'promise') return `Unhandled rejection: ${message}`;
  return `Error: ${message}`;
}

/** One line per event for the incident's trail, in the product's words. */
export function describeTrailEvent(event: StoredTrailEvent): string {
  const provider = event.walletProvider ? ` (${event.walletProvider})` : '';
  switch (event.type) {
    case 'page_view':
      return clip(`Viewed ${event.path ?? '/'}${event.title ? ` "${event.title}"` : ''}`);
    case 'wallet_detected':
      return clip(`Wallet detected: ${event.walletProvider ?? 'unknown provider'}`);
    case 'wallet_connected':
      return clip(`Connected ${event.walletAddress ? shorten(event.walletAddress) : 'a wallet'}${provider}`);
    case 'wallet_disconnected':
      return clip(
        `Disconnected ${event.walletAddress ? shorten(event.walletAddress) : 'the wallet'}${provider}`,
      );
    case 'chain_changed':
      return clip(
        event.chainId == null
          ? 'Switched network'
          : `Switched to ${networkName(event.chainId)} (${event.chainId})`,
      );
    case 'tx':
      return clip(describeTx(event));
    case 'signature':
      return clip(`Signature (${event.sigMethod ?? 'unknown method'}) ${event.sigStage ?? 'updated'}`);
    case 'error':
      return clip(describeError(event));
    case 'custom':
      return clip(event.eventName ? `Custom event ${event.eventName}` : 'Custom event');
    case 'identify':
      return 'Identified the user';
    default:
      return clip(event.type.replace(/_/g, ' '));
  }
}

export function toTrailEvent(event: StoredTrailEvent): TrailEvent {
  return {
    time: new Date(event.timeMs).toISOString(),
    type: event.type,
    description: describeTrailEvent(event),
  };
}
