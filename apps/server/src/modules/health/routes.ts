import type { FastifyInstance } from 'fastify';
import { hasBearerToken } from '../../lib/bearer-token.ts';
import type { HealthService } from './service.ts';

export type HealthRouteOptions = {
  health: HealthService;
  /** METRICS_TOKEN: a caller sending it as a Bearer token sees every check; no token, no details. */
  detailsToken: string | undefined;
};

/**
 * `GET /api/v1/health`: 200 `{status: "ok"}` when all checks pass, 503 `{errorCode, message, status}`
 * naming the failing checks otherwise. No session needed: load balancers call it. The checks' details
 * (the data directory's path, byte counts, latencies, errors) are only for `Authorization: Bearer
 * <METRICS_TOKEN>`: an anonymous caller learns the status alone.
 */
export async function healthRoutes(app: FastifyInstance, { health, detailsToken }: HealthRouteOptions) {
  app.get(
    '/health',
    {
      config: {
        docs: {
          summary: 'Health: status, and every check with the metrics token',
          description:
            'Anonymous callers get `{status}` only; `Authorization: Bearer <METRICS_TOKEN>` shows each check: ' +
            "accounts store, event store, the loader's lag, free disk, emails waiting, records in quarantine. " +
            '503 `SERVICE_UNHEALTHY` names the failing checks. For load balancers and monitors.',
          tag: 'Operations',
          auth: 'none',
          responses: { 200: { description: 'Every check passes.' } },
        },
      },
    },
    async (request, reply) => {
      const report = await health.report();
      const isDetailed =
        detailsToken !== undefined && hasBearerToken(request.headers.authorization, detailsToken);
      const shown = isDetailed ? report : { status: report.status };
      reply.header('cache-control', 'no-store');
      if (report.status === 'ok') return shown;
      const failing = Object.entries(report.checks)
        .filter(([, check]) => 'status' in check && check.status === 'failing')
        .map(([name]) => name);
      return reply.status(503).send({
        errorCode: 'SERVICE_UNHEALTHY',
        message: `Failing: ${failing.join(', ')}.`,
        ...shown,
      });
    },
  );
}
