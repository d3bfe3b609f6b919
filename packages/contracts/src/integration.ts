import { z } from 'zod';

/** Answer of `GET /api/v1/projects/{id}/integration`: what the "Test SDK Integration" card reports. */
export const IntegrationStatusSchema = z.object({
  hasApiKey: z.boolean(),
  whitelistedDomains: z.array(z.string()),
  /** Events stored since the `since` query parameter (default: the last 24 hours). */
  eventsSince: z.number(),
  lastEvent: z.object({ receivedAt: z.string(), origin: z.string(), type: z.string() }).nullable(),
  origins: z.array(z.object({ origin: z.string(), events: z.number(), lastReceivedAt: z.string() })),
});
export type IntegrationStatus = z.infer<typeof IntegrationStatusSchema>;
