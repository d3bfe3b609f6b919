import { Readable } from 'node:stream';
import { AuditLogQuerySchema, AuditLogSchema } from '@polyflow/contracts/members';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.ts';
import { parseBody } from '../../http/validation.ts';
import { requireUser } from '../auth/guard.ts';
import type { AuditLogService } from './service.ts';

/** `GET /api/v1/projects/:id/audit-log`: pages as JSON, or the whole log as CSV (`format=csv`). */
export async function auditLogRoutes(app: FastifyInstance, { auditLog }: { auditLog: AuditLogService }) {
  const docs = {
    summary: "The project's audit log",
    description:
      "Admins and the owner. Newest first; `before` is the previous page's `nextBefore`. `format=csv` answers the whole log (a year) as CSV.",
    tag: 'Members',
    auth: 'session' as const,
    query: AuditLogQuerySchema,
    responses: {
      200: { description: 'A page of entries, or the CSV file.', schema: AuditLogSchema },
    },
  };
  app.get<{ Params: { id: string } }>(
    '/projects/:id/audit-log',
    { config: { docs } },
    async (request, reply) => {
      const user = await requireUser(request);
      let query: ReturnType<typeof AuditLogQuerySchema.parse>;
      try {
        query = parseBody(AuditLogQuerySchema, request.query);
      } catch (error) {
        if (error instanceof AppError)
          throw new AppError(400, 'INVALID_REQUEST', 'Invalid query.', error.details);
        throw error;
      }
      const projectId = request.params.id;
      if (query.format !== 'csv') return auditLog.page(user, projectId, query);
      const lines = auditLog.csv(user, projectId);
      // The role check runs before the first line, so a refusal is still an ordinary error answer.
      const first = await lines.next();
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-log-${projectId}.csv"`)
        .send(
          Readable.from(
            (async function* () {
              if (!first.done) yield first.value;
              yield* lines;
            })(),
          ),
        );
    },
  );
}
