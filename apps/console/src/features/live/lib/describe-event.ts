import type { LiveEvent } from '@polyflow/contracts/live';
import { eventTypeLabel } from '../../../components/ui/event-types';
import { shortenAddress } from '../../../lib/format';

export type EventTone = 'neutral' | 'wallet' | 'transaction' | 'signature' | 'error';

export interface EventDescription {
  /** What happened, in words: "Transaction submitted". */
  title: string;
  /** The detail that tells this one apart: a path, a wallet, a hash, an error message. */
  detail: string | null;
  tone: EventTone;
}

/** A live event in the console's words. */
export function describeEvent(event: LiveEvent): EventDescription {
  const wallet = event.wallet ? shortenAddress(event.wallet) : null;
  switch (event.type) {
    case 'page_view':
      return { title: 'Page view', detail: event.path, tone: 'neutral' };
    case 'wallet_detected':
      return { title: 'Wallet detected', detail: event.walletProvider, tone: 'wallet' };
    case 'wallet_connected':
      return {
        title: 'Wallet connected',
        detail: [wallet, event.walletProvider].filter(Boolean).join(' · ') || null,
        tone: 'wallet',
      };
    case 'wallet_disconnected':
      return { title: 'Wallet disconnected', detail: wallet, tone: 'wallet' };
    case 'chain_changed':
      return {
        title: 'Chain changed',
        detail: event.chainId === null ? null : `to ${event.chainId}`,
        tone: 'wallet',
      };
    case 'tx': {
      const stage = event.txStage ?? 'update';
      const isFailure = stage === 'failed' || stage === 'reverted';
      return {
        title: `Transaction ${stage}`,
        detail:
          isFailure && event.errorMessage
            ? event.errorMessage
            : event.txHash
              ? shortenAddress(event.txHash)
              : wallet,
        tone: isFailure ? 'error' : 'transaction',
      };
    }
    case 'signature': {
      const stage = event.signatureStage ?? 'update';
      return {
        title: `Signature ${stage}`,
        detail: event.signatureMethod,
        tone: stage === 'failed' ? 'error' : 'signature',
      };
    }
    case 'error':
      return { title: 'Error', detail: event.errorMessage, tone: 'error' };
    case 'custom':
      // Named as the wallet timeline and the incident trail name it.
      return {
        title: event.eventName ? `Custom event ${event.eventName}` : eventTypeLabel(event.type),
        detail: event.path,
        tone: 'neutral',
      };
    default:
      return { title: eventTypeLabel(event.type), detail: event.path, tone: 'neutral' };
  }
}
