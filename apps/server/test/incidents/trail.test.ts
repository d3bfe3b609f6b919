import { describe, expect, it } from 'vitest';
import type { StoredTrailEvent } from '../../src/modules/event-store/incident-questions.ts';
import { describeTrailEvent, shorten } from '../../src/modules/incidents/trail.ts';

const event = (overrides: Partial<StoredTrailEvent>): StoredTrailEvent => ({
  timeMs: 0,
  type: 'page_view',
  eventName: null,
  path: null,
  title: null,
  walletAddress: null,
  walletProvider: null,
  chainId: null,
  txStage: null,
  txKind: null,
  txHash: null,
  txTo: null,
  selector: null,
  sigStage: null,
  sigMethod: null,
  errorSource: null,
  errorMessage: null,
  errorCode: null,
  rpcMethod: null,
  ...overrides,
});

describe('describeTrailEvent', () => {
  it.each<[Partial<StoredTrailEvent>, string]>([
    [{ type: 'page_view', path: '/pools' }, 'Viewed /pools'],
    [{ type: 'wallet_detected', walletProvider: 'Rabby Wallet' }, 'Wallet detected: Rabby Wallet'],
    [{ type: 'wallet_disconnected' }, 'Disconnected the wallet'],
    [{ type: 'chain_changed', chainId: 31337 }, 'Switched to Anvil (local) (31337)'],
    [{ type: 'chain_changed', chainId: 424242 }, 'Switched to Chain 424242 (424242)'],
    [
      {
        type: 'tx',
        txKind: 'coin',
        txStage: 'confirmed',
        txTo: `0x${'ab'.repeat(20)}`,
        txHash: `0x${'cd'.repeat(32)}`,
      },
      'Transfer to 0xabab…abab confirmed 0xcdcd…cdcd',
    ],
    [
      { type: 'signature', sigMethod: 'personal_sign', sigStage: 'signed' },
      'Signature (personal_sign) signed',
    ],
    [
      {
        type: 'error',
        errorSource: 'wallet',
        errorCode: 4100,
        rpcMethod: 'eth_accounts',
        errorMessage: 'Unauthorized',
      },
      'Wallet error 4100 in eth_accounts: Unauthorized',
    ],
    [{ type: 'error', errorSource: 'promise', errorMessage: 'boom' }, 'Unhandled rejection: boom'],
    [{ type: 'error', errorSource: 'window', errorMessage: 'boom' }, 'Error: boom'],
    // A custom event by its name (it read "custom"), an identify in words.
    [{ type: 'custom', eventName: 'quote_requested' }, 'Custom event quote_requested'],
    [{ type: 'identify' }, 'Identified the user'],
  ])('%o → %s', (overrides, expected) => {
    expect(describeTrailEvent(event(overrides))).toBe(expected);
  });

  it('cuts long descriptions', () => {
    const text = describeTrailEvent(
      event({ type: 'error', errorSource: 'window', errorMessage: 'x'.repeat(1000) }),
    );
    expect(text).toHaveLength(200);
    expect(text.endsWith('…')).toBe(true);
  });

  it('shortens like the console', () => {
    expect(shorten(`0x${'1'.repeat(40)}`)).toBe('0x1111…1111');
    expect(shorten('0x1234')).toBe('0x1234');
  });
});
