import { expect, type Page } from '@playwright/test';

/** An event as the SDK sent it: the fields the journeys read. */
export type SentEvent = { type: string; hash?: string; stage?: string };

/**
 * The events the SDK of `page` sends from now on, read from its batches as each finishes (those the server
 * answered with 200). The array fills as the page goes on.
 */
export function recordSentEvents(page: Page): SentEvent[] {
  const sent: SentEvent[] = [];
  page.on('requestfinished', async (request) => {
    if (!request.url().endsWith('/api/v1/events')) return;
    if ((await request.response())?.status() !== 200) return;
    sent.push(...(JSON.parse(request.postData() ?? '{}').events ?? []));
  });
  return sent;
}

/**
 * Keeps the page until the SDK has sent an outcome (`confirmed` or `reverted`) for each of `hashes`. The dapp
 * knows a transaction is mined when its own wait ends; the SDK reads the receipt on its own back-off, and a
 * page left before that never sends it (seen on loaded machines). Meanwhile the page calls the SDK's
 * documented `flush()` (packages/sdk/README.md, the handle `window.Polyflow` holds) every 250 ms, as a dapp may
 * before it moves on: an outcome the SDK has read is sent then, not up to its 3 s batching interval later.
 * What is sent, and when the SDK reads a receipt, stay the SDK's.
 */
export async function waitForSentOutcomes(
  page: Page,
  sent: readonly SentEvent[],
  hashes: readonly unknown[],
  timeoutMs: number,
): Promise<void> {
  const settled = async () => {
    await page.evaluate(() =>
      (window as unknown as { Polyflow?: { flush?(): Promise<void> } }).Polyflow?.flush?.(),
    );
    return hashes.filter((hash) =>
      sent.some(
        (event) =>
          event.type === 'tx' &&
          event.hash === hash &&
          (event.stage === 'confirmed' || event.stage === 'reverted'),
      ),
    ).length;
  };
  await expect
    .poll(settled, { message: 'outcomes sent by the SDK', timeout: timeoutMs, intervals: [250] })
    .toBe(hashes.length);
}
