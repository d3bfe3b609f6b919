import { storableText } from '@polyflow/contracts/text';

/**
 * The text of a batch that neither the SDK nor the dapp chose, cleaned in place before the batch is checked
 * (ADR 169): an error's message and stack (what a page threw, what a node wrote: anvil puts a custom error's
 * raw bytes in its message), a failed wallet call's message, and the wallet's name and rdns (an EIP-6963
 * announcement). Their control characters and lone surrogates become U+FFFD, line breaks and tabs kept in
 * messages and stacks. Every other field is still refused with the batch when it holds one.
 */
export function cleanThirdPartyText(body: unknown): void {
  const events = (body as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) return;
  for (const event of events) {
    if (typeof event !== 'object' || event === null) continue;
    const record = event as Record<string, unknown>;
    if (record.type === 'error') {
      cleanField(record, 'message', true);
      cleanField(record, 'stack', true);
      const state = record.walletState;
      if (typeof state === 'object' && state !== null)
        cleanField(state as Record<string, unknown>, 'provider', false);
    }
    const error = record.error;
    if (typeof error === 'object' && error !== null)
      cleanField(error as Record<string, unknown>, 'message', true);
    const wallet = record.wallet;
    if (typeof wallet === 'object' && wallet !== null) {
      cleanField(wallet as Record<string, unknown>, 'provider', false);
      cleanField(wallet as Record<string, unknown>, 'rdns', false);
    }
  }
}

function cleanField(record: Record<string, unknown>, key: string, allowBreaks: boolean): void {
  const value = record[key];
  if (typeof value === 'string') record[key] = storableText(value, allowBreaks);
}
