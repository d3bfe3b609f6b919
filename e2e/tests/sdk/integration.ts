import { expect, type Page } from '@playwright/test';
import type { IntegrationStatus } from '@polyflow/contracts/integration';
import { type OwnedProject, type PolyflowInstance, rest } from './polyflow-instance.ts';

/** What the console's "Test SDK Integration" card reads. */
export function integrationStatus(
  instance: PolyflowInstance,
  project: OwnedProject,
): Promise<IntegrationStatus> {
  return rest<IntegrationStatus>(instance, 'GET', `/projects/${project.id}/integration`, {
    token: project.token,
  });
}

/**
 * Waits until the server reports at least `minimum` stored events for the project and the count has
 * stopped growing (the SDK sends in batches; late ones, such as receipts, may trail by a few seconds).
 * With `flushing`, a page that is still open, the page calls the SDK's documented `flush()` (the handle
 * `window.Polyflow` holds) before each count, as a dapp may: what the SDK has queued is sent then, not up
 * to its 3 s batching interval later.
 */
export async function waitForStoredCount(
  instance: PolyflowInstance,
  project: OwnedProject,
  minimum: number,
  { flushing }: { flushing?: Page } = {},
) {
  let last = -1;
  let stableSince = Date.now();
  await expect
    .poll(
      async () => {
        await flushing?.evaluate(() =>
          (window as unknown as { Polyflow?: { flush?(): Promise<void> } }).Polyflow?.flush?.(),
        );
        const { eventsSince } = await integrationStatus(instance, project);
        if (eventsSince !== last) {
          last = eventsSince;
          stableSince = Date.now();
        }
        return eventsSince >= minimum && Date.now() - stableSince >= 1500;
      },
      {
        message: `at least ${minimum} events stored (last count: see above)`,
        timeout: 20_000,
        intervals: [250],
      },
    )
    .toBe(true);
  return last;
}
