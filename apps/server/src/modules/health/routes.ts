import type { FastifyInstance } from 'fastify';
import type { HealthService } from './service.ts';

/**
 * `GET /api/v1/health`: 200 with every check when all pass, 503 with `{errorCode, message}` naming the
 * failing checks (and every check) otherwise. No session needed: load balancers call it.
 */
export async function healthRoutes(app: FastifyInstance, { health }: { health: HealthService }) {
  app.get(
    '/health',
    {
      config: {
        docs: {
          summary: 'Health: every check of the server',
          description:
            "Accounts store, event store, the loader's lag, free disk, emails waiting, records in quarantine. " +
            '503 `SERVICE_UNHEALTHY` names the failing checks. For load balancers and monitors.',
          tag: 'Operations',
          auth: 'none',
          responses: { 200: { description: 'Every check passes.' } },
        },
      },
    },
    async (_request, reply) => {
      const report = await health.report();
      if (report.status === 'ok') return report;
      const failing = Object.entries(report.checks)
        .filter(([, check]) => 'status' in check && check.status === 'failing')
        .map(([name]) => name);
      return reply.status(503).send({
        errorCode: 'SERVICE_UNHEALTHY',
        message: `Failing: ${failing.join(', ')}.`,
        ...report,
      });
    },
  );
}
