import { expect } from '@playwright/test';
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
 */
export async function waitForStoredCount(instance: PolyflowInstance, project: OwnedProject, minimum: number) {
  let last = -1;
  let stableSince = Date.now();
  await expect
    .poll(
      async () => {
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
