import type { IntegrationStatus } from '@polyflow/contracts/integration';
import { badRequest } from '../../errors.ts';
import type { ProjectAccess } from '../../lib/access.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import type { IngestionQuestions } from '../event-store/event-store.ts';

export type IntegrationStatusDeps = {
  projects: ProjectAccess;
  /** The card counts what was acknowledged a moment ago: the log is loaded first. */
  log: { flush(): Promise<void> };
  store: Pick<IngestionQuestions, 'integrationSummary'>;
  clock?: Clock;
};

export type IntegrationStatusPart = ReturnType<typeof createIntegrationStatus>;

const DAY_MS = 86_400_000;
/** A date, or a date and time with an optional zone: nothing more (Date.parse forgives trailing junk). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** The console's "Test SDK Integration" card (`GET /api/v1/projects/:id/integration`). */
export function createIntegrationStatus(deps: IntegrationStatusDeps) {
  const clock = deps.clock ?? systemClock;
  return {
    /** What the card shows; members only (others: 404). */
    async integrationStatus(
      userId: string,
      projectId: string,
      since: string | undefined,
    ): Promise<IntegrationStatus> {
      let sinceDate = new Date(clock().getTime() - DAY_MS);
      if (since !== undefined) {
        sinceDate = new Date(since);
        if (!ISO_TIME.test(since) || Number.isNaN(sinceDate.getTime())) {
          throw badRequest('since must be an ISO 8601 time, e.g. 2024-03-01T12:00:00Z.', [
            { path: 'since', message: 'expected an ISO 8601 time' },
          ]);
        }
      }
      const project = await deps.projects.getProjectFor(userId, projectId);
      await deps.log.flush();
      const summary = await deps.store.integrationSummary(project.id, sinceDate);
      return {
        hasApiKey: project.apiKey !== null,
        whitelistedDomains: project.whitelistedDomains,
        eventsSince: summary.eventsSince,
        lastEvent: summary.lastEvent && {
          receivedAt: summary.lastEvent.receivedAt.toISOString(),
          origin: summary.lastEvent.origin,
          type: summary.lastEvent.type,
        },
        origins: summary.origins.map((origin) => ({
          origin: origin.origin,
          events: origin.events,
          lastReceivedAt: origin.lastReceivedAt.toISOString(),
        })),
      };
    },
  };
}
