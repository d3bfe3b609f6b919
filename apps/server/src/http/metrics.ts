import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { AppError, notFound } from '../errors.ts';
import { hasBearerToken as isAuthorized } from '../lib/bearer-token.ts';
import type { Metrics } from '../metrics/metrics.ts';

export type MetricsOptions = {
  metrics: Metrics;
  /** METRICS_TOKEN: `/metrics` on the main port, for `Authorization: Bearer <token>` only. */
  token: string | undefined;
  /** METRICS_PORT: `/metrics` on a port of its own (on HOST), for a scraper on a private network. */
  port: number | undefined;
  host: string;
};

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * Prometheus metrics, off unless configured: `GET /metrics` answers 404 on the main port without
 * METRICS_TOKEN (it is not the console's page either), 401 without the right Bearer token. With
 * METRICS_PORT a second listener serves only `/metrics` (asking for the token too when one is set).
 */
export async function registerMetrics(app: FastifyInstance, options: MetricsOptions): Promise<void> {
  const { metrics, token, port, host } = options;
  app.get(
    '/metrics',
    {
      logLevel: 'warn',
      config: {
        docs: {
          summary: 'Prometheus metrics (with METRICS_TOKEN set)',
          description: 'Off (404) unless `METRICS_TOKEN` is set; see Self-hosting, "Metrics".',
          tag: 'Operations',
          auth: 'metrics-token',
          responses: { 200: { description: 'The Prometheus text format.', contentTypes: [CONTENT_TYPE] } },
        },
      },
    },
    async (request, reply) => {
      if (!token) throw notFound('Metrics are off on this port: set METRICS_TOKEN or METRICS_PORT.');
      if (!isAuthorized(request.headers.authorization, token)) {
        throw new AppError(
          401,
          'BAD_AUTHENTICATION',
          'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.',
        );
      }
      return reply
        .header('content-type', CONTENT_TYPE)
        .header('cache-control', 'no-store')
        .send(metrics.render());
    },
  );

  if (port === undefined) return;
  let server: Server | undefined;
  app.addHook('onListen', async () => {
    server = createServer((request, response) => {
      const path = (request.url ?? '').split('?', 1)[0];
      if (request.method !== 'GET' || path !== '/metrics') {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ errorCode: 'RESOURCE_NOT_FOUND', message: 'Only GET /metrics here.' }));
        return;
      }
      if (token && !isAuthorized(request.headers.authorization, token)) {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            errorCode: 'BAD_AUTHENTICATION',
            message: 'Send Authorization: Bearer <METRICS_TOKEN>.',
          }),
        );
        return;
      }
      response.writeHead(200, { 'content-type': CONTENT_TYPE, 'cache-control': 'no-store' });
      response.end(metrics.render());
    });
    const listening = server;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(port, host, () => resolve());
    });
    app.log.info(`Prometheus metrics on http://${host}:${port}/metrics`);
  });
  app.addHook('onClose', async () => {
    const listening = server;
    if (listening) await new Promise<void>((resolve) => listening.close(() => resolve()));
  });
}
