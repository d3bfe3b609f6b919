import { MAX_BATCH_BYTES } from '@polyflow/contracts/events';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import type { EventService } from './service.ts';

export type EventRoutesOptions = { events: EventService };

/** Methods and headers a dapp page may use cross-origin; never credentials (the key is not a cookie). */
function allowPreflight(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  reply.header('vary', 'Origin');
  if (!origin) return;
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-allow-methods', 'POST, OPTIONS');
  reply.header('access-control-allow-headers', 'content-type');
  reply.header('access-control-max-age', '600');
}

function readApiKey(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('Invalid batch: the body must be a JSON object {apiKey, events}.', [
      { path: '', message: 'expected an object' },
    ]);
  }
  const { apiKey } = body as { apiKey?: unknown };
  if (typeof apiKey !== 'string') {
    throw badRequest('Invalid batch: apiKey is required (a string).', [
      { path: 'apiKey', message: 'expected a string' },
    ]);
  }
  return apiKey;
}

/**
 * `POST /api/v1/events` (the SDK's batches) and the integration status of the console's test card.
 * Own content-type parsers: the SDK sends `text/plain` (no CORS preflight) and the API key in the body.
 */
export async function eventRoutes(app: FastifyInstance, { events }: EventRoutesOptions): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['text/plain', 'application/json'],
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, body);
    },
  );
  app.addContentTypeParser('*', (_request, _payload, done) => {
    done(new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the batch as text/plain or application/json.'));
  });

  // The SDK's own requests never need a preflight; other clients sending application/json do. A
  // preflight carries no key, so it is answered for any origin: the POST itself checks the whitelist.
  app.options('/api/v1/events', async (request, reply) => {
    allowPreflight(request, reply);
    return reply.status(204).send();
  });

  // Two info lines per batch cost more CPU than the batch's validation: log this route's warnings and
  // errors only (the integration card shows what arrives).
  app.post('/api/v1/events', { bodyLimit: MAX_BATCH_BYTES, logLevel: 'warn' }, async (request, reply) => {
    reply.header('vary', 'Origin');
    let body: unknown;
    try {
      body = JSON.parse(typeof request.body === 'string' ? request.body : '');
    } catch {
      throw badRequest('Request body is not valid JSON.');
    }
    const access = await events.authorize(readApiKey(body), request.headers.origin);
    // From here on the origin is whitelisted: it may read our answers, errors included (retry decisions).
    reply.header('access-control-allow-origin', request.headers.origin);
    const { events: list } = body as { events?: unknown };
    events.takeRate(access, Array.isArray(list) ? list.length : 1);
    if (events.isBacklogged()) {
      reply.header('retry-after', '5');
      throw new AppError(
        503,
        'INGESTION_BACKLOG',
        'Events are arriving faster than they can be stored; retry in a few seconds.',
      );
    }
    return events.ingestBatch(access, body, { userAgent: request.headers['user-agent'], ip: request.ip });
  });

  app.get<{ Params: { id: string }; Querystring: { since?: string } }>(
    '/api/v1/projects/:id/integration',
    async (request) => {
      const user = await requireUser(request);
      const since = typeof request.query.since === 'string' ? request.query.since : undefined;
      return events.integrationStatus(user.id, request.params.id, since);
    },
  );
}
