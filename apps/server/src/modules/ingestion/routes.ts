import { BatchResultSchema, BatchSchema, MAX_BATCH_BYTES } from '@polyflow/contracts/events';
import { IntegrationStatusSchema } from '@polyflow/contracts/integration';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { answerPreflight } from '../../http/cors.ts';
import { requireUser } from '../auth/guard.ts';
import type { AdmissionPart } from './admission.ts';
import type { IngestPart } from './ingest.ts';
import type { IntegrationStatusPart } from './integration-status.ts';

export type EventRoutesOptions = {
  admission: Pick<AdmissionPart, 'admitBatch'>;
  ingest: Pick<IngestPart, 'ingestBatch'>;
  integration: IntegrationStatusPart;
  /** Counts refused ingestion requests by errorCode (/metrics). */
  onRefused?(errorCode: string): void;
};

/**
 * `POST /api/v1/events` (the SDK's batches) and the integration status of the console's test card.
 * Own content-type parsers: the SDK sends `text/plain` (no CORS preflight) and the API key in the body.
 */
export async function eventRoutes(
  app: FastifyInstance,
  { admission, ingest, integration, onRefused }: EventRoutesOptions,
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
          summary: 'CORS preflight for the SDK (answered for any origin; the POST checks the whitelist)',
          description:
            "Answered 204 for any `Origin`, which the answer's `Access-Control-Allow-Origin` repeats: a preflight " +
            'carries no API key, so the project and its whitelist are not known yet. The POST itself is refused ' +
            "(`403 ORIGIN_NOT_WHITELISTED`, no CORS headers) unless its Origin is on the key's project's whitelist. " +
            'The SDK sends `text/plain` and never needs a preflight; other clients sending JSON do.',
          tag: 'Ingestion',
          auth: 'none',
          responses: {
            204: {
              description:
                'For any Origin: it may send the POST with a `content-type` header; the POST decides whether it is whitelisted.',
            },
          },
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
        description:
          'Accepted, how many were duplicates of events already sent, and the events left out for the custom-event limits.',
        schema: BatchResultSchema,
      },
    },
  };
  app.post(
    '/api/v1/events',
    { bodyLimit: MAX_BATCH_BYTES, logLevel: 'warn', config: { docs: ingestDocs } },
    async (request, reply) => {
      reply.header('vary', 'Origin');
      const origin = request.headers.origin;
      const admitted = await admission.admitBatch(request.body, origin);
      if (!admitted.admitted) {
        if (admitted.pageMayRead && origin) reply.header('access-control-allow-origin', origin);
        throw admitted.refusal;
      }
      reply.header('access-control-allow-origin', origin);
      return ingest.ingestBatch(admitted.access, admitted.body, {
        userAgent: request.headers['user-agent'],
        ip: request.ip,
      });
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
      return integration.integrationStatus(user.id, request.params.id, since);
    },
  );
}
