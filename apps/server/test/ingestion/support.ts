import { randomBytes } from 'node:crypto';
import type { BatchInput, IngestEventInput } from '@polyflow/contracts/events';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../src/app.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';

export const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
/** An address the bundled DB-IP country database places in Great Britain (MaxMind's own test address). */
export const GB_IP = '81.2.69.160';

export const eventId = () => `ev_${randomBytes(9).toString('base64url')}`;

/** A valid page view; `overrides` can turn it into any other event. */
export function pageView(overrides: Partial<IngestEventInput> = {}): IngestEventInput {
  return {
    id: eventId(),
    type: 'page_view',
    ts: Date.now(),
    userId: 'user-1',
    sessionId: 'session-1',
    path: '/swap',
    ...overrides,
  } as IngestEventInput;
}

export type PostOptions = { origin?: string | null; userAgent?: string; ip?: string; contentType?: string };

export function postBatch(app: FastifyInstance, body: BatchInput | string, options: PostOptions = {}) {
  const headers: Record<string, string> = {
    'content-type': options.contentType ?? 'text/plain;charset=UTF-8',
    'user-agent': options.userAgent ?? CHROME_UA,
  };
  if (options.origin !== null) headers.origin = options.origin ?? 'https://app.example.com';
  return app.inject({
    method: 'POST',
    url: '/api/v1/events',
    headers,
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    remoteAddress: options.ip ?? GB_IP,
  });
}

/** Every stored row of a project, read back through the event store's port. */
export async function storedEvents(services: Services, projectId: string): Promise<EventRow[]> {
  // Acknowledged events reach the store through the ingestion log's loader.
  await services.events.flush();
  return services.eventStore.projectEvents(projectId);
}
