import { storableText } from '@polyflow/contracts/text';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { eventId, postBatch, storedEvents } from './support.ts';

/**
 * Text a page or a wallet wrote reaches the store cleaned, not refused with its batch (ADR 169): an outside
 * check with ethers v6 on anvil got a custom error's raw bytes (NUL among them) in the failed estimate's
 * message, and the batch that carried it, a confirmed transaction's stages with it, was refused whole.
 */
const harness = useTestApp('sqlite');
let apiKey = '';
let projectId = '';
const ADDRESS = `0x${'ab'.repeat(20)}`;
const HASH = `0x${'cd'.repeat(32)}`;

beforeAll(async () => {
  const { project } = await seed(harness.services)
    .user()
    .verified()
    .project('Dapp')
    .apiKey()
    .domain('app.example.com');
  apiKey = project.apiKey as string;
  projectId = project.id;
});

const base = () => ({
  id: eventId(),
  ts: Date.now(),
  userId: 'u1',
  sessionId: 's1',
  path: '/',
});

describe('third-party text in a batch', () => {
  it('stores the batch, with control characters and lone surrogates of messages, stacks and wallet names as U+FFFD', async () => {
    const wallet = { address: ADDRESS, provider: 'Odd\u0007Wallet', rdns: 'io.odd\u0000', chainId: 1 };
    const events = [
      { ...base(), type: 'tx', txId: 't1', stage: 'requested', kind: 'coin', wallet },
      { ...base(), type: 'tx', txId: 't1', stage: 'submitted', kind: 'coin', hash: HASH, wallet },
      {
        ...base(),
        type: 'tx',
        txId: 't1',
        stage: 'confirmed',
        kind: 'coin',
        hash: HASH,
        gasUsed: '21000',
        wallet,
      },
      {
        ...base(),
        type: 'tx',
        txId: 't2',
        stage: 'failed',
        kind: 'contract',
        wallet,
        error: { code: 3, message: 'execution reverted: custom error 0xcf479181: \u0000\u0000\u0000*' },
      },
      {
        ...base(),
        type: 'error',
        source: 'window',
        message: 'bad \u0007 byte\ttab',
        // A message cut inside an emoji's pair: a lone high surrogate at the end.
        stack: 'Error: bad\n    at f (https://app.example.com/a.js:1:2)\ud83e',
        walletState: { provider: 'Odd\u0007Wallet' },
      },
    ];
    const answer = await postBatch(harness.app, { apiKey, events } as never);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ accepted: 5, duplicates: 0 });
    const stored = await storedEvents(harness.services, projectId);
    const of = (id: string) => stored.find((row) => row.id === id);
    expect(of(events[2]?.id as string)?.tx_stage).toBe('confirmed');
    expect(of(events[3]?.id as string)?.error_message).toBe(
      'execution reverted: custom error 0xcf479181: \ufffd\ufffd\ufffd*',
    );
    const error = of(events[4]?.id as string);
    expect(error?.error_message).toBe('bad \ufffd byte\ttab');
    expect(error?.error_stack).toBe('Error: bad\n    at f (https://app.example.com/a.js:1:2)\ufffd');
    expect(of(events[0]?.id as string)?.wallet_provider).toBe('Odd\ufffdWallet');
  });

  it('still refuses the batch for a control character in a field the SDK or the dapp chose', async () => {
    const answer = await postBatch(harness.app, {
      apiKey,
      events: [{ ...base(), type: 'page_view', sessionId: 'session\u0000one' }],
    } as never);
    expect(answer.statusCode).toBe(400);
  });

  it('cleans any string into one the stores accept, and leaves storable text as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.boolean(), (text, allowBreaks) => {
        const cleaned = storableText(text, allowBreaks);
        expect(cleaned.length).toBe(text.length);
        const pattern = allowBreaks
          ? /^[^\p{Cc}\p{Cs}]*(?:[\t\n\r][^\p{Cc}\p{Cs}]*)*$/u
          : /^[^\p{Cc}\p{Cs}]*$/u;
        expect(pattern.test(cleaned)).toBe(true);
        if (pattern.test(text)) expect(cleaned).toBe(text);
      }),
    );
  });
});
