import { z } from 'zod';
import { count, text } from '../../rows.ts';

/** What the integration card needs, counted from `since`. */
export type IntegrationSummary = {
  eventsSince: number;
  lastEvent: { receivedAt: Date; origin: string; type: string } | null;
  origins: { origin: string; events: number; lastReceivedAt: Date }[];
};

/** Events per origin host since `since`, and the project's latest event of all time (the integration card). */
export type IntegrationSummaryQuestion = {
  integrationSummary(projectId: string, since: Date): Promise<IntegrationSummary>;
};

export const OriginRow = z.object({ origin: text, events: count, last: count });
export const LatestRow = z.object({ received: count, origin: text, type: text });

export function integrationSummaryOf(
  perOrigin: z.infer<typeof OriginRow>[],
  last: z.infer<typeof LatestRow> | undefined,
): IntegrationSummary {
  const origins = perOrigin.map((row) => ({
    origin: row.origin,
    events: row.events,
    lastReceivedAt: new Date(row.last),
  }));
  return {
    eventsSince: origins.reduce((sum, origin) => sum + origin.events, 0),
    lastEvent: last ? { receivedAt: new Date(last.received), origin: last.origin, type: last.type } : null,
    origins,
  };
}
