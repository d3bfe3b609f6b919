import { BatchResultSchema, BatchSchema, MAX_BATCH_BYTES } from '@polyflow/contracts/events';
import { IntegrationStatusSchema } from '@polyflow/contracts/integration';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseJson } from 'secure-json-parse';
import { z } from 'zod';
import { AppError, badRequest } from '../../errors.ts';
import { allowWhitelistedOrigin, answerPreflight } from '../../http/cors.ts';
import { bearerToken, requireUser } from '../auth/guard.ts';
import { type EventService, ingestionBacklog } from './service.ts';

export type EventRoutesOptions = {
  events: EventService;
  /** Counts refused ingestion requests by errorCode (/metrics). */
  onRefused?(errorCode: string): void;
};

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
 * The API key of a body that begins as the SDK's do (`{"apiKey":"…",`), without parsing the rest; undefined
 * for any other shape (the request is then parsed whole, as always).
 */
function leadingApiKey(body: unknown): string | undefined {
  if (typeof body !== 'string' || !body.startsWith('{"apiKey":"')) return undefined;
  const end = body.indexOf('"', 11);
  if (end < 0 || end > 11 + 128) return undefined;
  const key = body.slice(11, end);
  return key.includes('\\') ? undefined : key;
}

/** 503 with Retry-After; any origin may read it, as it may a preflight: it says nothing of any project. */
function refuseBacklogged(request: FastifyRequest, reply: FastifyReply): never {
  if (request.headers.origin) reply.header('access-control-allow-origin', request.headers.origin);
  throw ingestionBacklog();
}

/**
 * `POST /api/v1/events` (the SDK's batches) and the integration status of the console's test card.
 * Own content-type parsers: the SDK sends `text/plain` (no CORS preflight) and the API key in the body.
 */
export async function eventRoutes(
  app: FastifyInstance,
  { events, onRefused }: EventRoutesOptions,
): Promise<void> {
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
  app.options(
    '/api/v1/events',
    {
      config: {
        docs: {
          summary: 'CORS preflight for the SDK (answered for whitelisted origins)',
          description: 'The SDK sends `text/plain` and never needs it; other clients sending JSON do.',
          tag: 'Ingestion',
          auth: 'none',
          responses: { 204: { description: 'The origin may post events.' } },
        },
      },
    },
    async (request, reply) => answerPreflight(request, reply, { allowHeaders: 'content-type' }),
  );

  if (onRefused) {
    app.addHook('onError', async (request, _reply, error) => {
      if (request.routeOptions.url !== '/api/v1/events') return;
      onRefused(
        error instanceof AppError ? error.errorCode : ((error as { code?: string }).code ?? 'INTERNAL'),
      );
    });
  }

  // Two info lines per batch cost more CPU than the batch's validation: log this route's warnings and
  // errors only (the integration card shows what arrives).
  const ingestDocs = {
    summary: 'Send a batch of events (what the SDK does)',
    description:
      'The batch is acknowledged once it is in the ingestion log and queryable within seconds. The API key ' +
      "travels in the body; the request's Origin must be on the project's whitelist. Up to " +
      `${MAX_BATCH_BYTES / 1024} KB per body. See "Wire format" in the documentation.`,
    tag: 'Ingestion',
    auth: 'api-key-in-body' as const,
    body: BatchSchema,
    bodyContentTypes: ['text/plain', 'application/json'],
    responses: {
      200: {
        description: 'Accepted, and how many were duplicates of events already sent.',
        schema: BatchResultSchema,
      },
    },
  };
  app.post(
    '/api/v1/events',
    { bodyLimit: MAX_BATCH_BYTES, logLevel: 'warn', config: { docs: ingestDocs } },
    async (request, reply) => {
      reply.header('vary', 'Origin');
      // While the store catches up (ADR 034): beyond twice the backlog's limit every request is refused
      // before anything else, so that refusals cost the loader no CPU; beyond the limit, a request of a
      // project holding its share of the backlog is refused as soon as its key (the SDK sends it first)
      // names the project, and the others go on.
      const backlog = events.backlog();
      if (backlog === 'full') refuseBacklogged(request, reply);
      if (backlog === 'over') {
        const key = leadingApiKey(request.body);
        const early =
          key === undefined
            ? undefined
            : await events.authorize(key, request.headers.origin).catch(() => undefined);
        if (early && events.isOverShare(early.projectId)) refuseBacklogged(request, reply);
      }
      let body: unknown;
      try {
        // As Fastify's JSON bodies: a `__proto__` or `constructor.prototype` key is refused, not dropped (zod
        // would drop one inside a custom event's properties and store the rest).
        body = parseJson(typeof request.body === 'string' ? request.body : '', undefined, {
          protoAction: 'error',
          constructorAction: 'error',
        });
      } catch (error) {
        throw badRequest(
          error instanceof SyntaxError && /forbidden prototype/.test(error.message)
            ? 'Request body holds a "__proto__" or "constructor.prototype" key, which Polyflow refuses.'
            : 'Request body is not valid JSON.',
        );
      }
      const access = await events.authorize(readApiKey(body), request.headers.origin);
      allowWhitelistedOrigin(request, reply);
      const { events: list } = body as { events?: unknown };
      events.takeRate(access, Array.isArray(list) ? list.length : 1);
      events.assertBacklogRoom(access.projectId);
      return events.ingestBatch(access, body, { userAgent: request.headers['user-agent'], ip: request.ip });
    },
  );

  // The Live screen. The console reads it with fetch() (EventSource cannot send the Authorization header,
  // and a session token must not travel in a URL, where logs and history keep it).
  app.addHook('preClose', async () => {
    events.live.closeAll({ reason: 'SHUTDOWN', message: 'The server is restarting; reconnect in a moment.' });
  });
  app.get<{ Params: { id: string } }>(
    '/api/v1/projects/:id/live',
    {
      config: {
        docs: {
          summary: 'The live stream of a project (Server-Sent Events)',
          description:
            'See "Live view" in the documentation for the messages; read it with fetch (a session header).',
          tag: 'Live',
          auth: 'session',
          responses: {
            200: { description: 'An event stream that stays open.', contentTypes: ['text/event-stream'] },
          },
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const projectId = request.params.id;
      await events.assertLiveAllowed(user.id, projectId);
      const token = bearerToken(request) ?? '';
      const sessions = request.server.sessions;
      const session = await sessions.describe(token);
      if (!session) throw new AppError(401, 'BAD_AUTHENTICATION', 'Sign in again to watch live.');
      reply.hijack();
      const response = reply.raw;
      response.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // nginx would otherwise buffer the stream.
        'x-accel-buffering': 'no',
      });
      // A first comment: proxies forward the head at once, and the client knows the stream is open.
      response.write(': connected\n\n');
      request.socket.setNoDelay(true);
      events.live.open(
        session,
        projectId,
        response,
        async () =>
          (await sessions.verify(token))?.id === user.id && (await events.isStillMember(user.id, projectId)),
        events.now(),
      );
    },
  );

  app.get<{ Params: { id: string }; Querystring: { since?: string } }>(
    '/api/v1/projects/:id/integration',
    {
      config: {
        docs: {
          summary: 'What the console\'s "Test SDK Integration" card shows',
          tag: 'Projects',
          auth: 'session',
          query: z.object({ since: z.string().optional() }),
          responses: {
            200: {
              description: 'Events received since `since` (default: 24 hours).',
              schema: IntegrationStatusSchema,
            },
          },
        },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const since = typeof request.query.since === 'string' ? request.query.since : undefined;
      return events.integrationStatus(user.id, request.params.id, since);
    },
  );
}
