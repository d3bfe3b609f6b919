import {
  AnnotationListSchema,
  AnnotationSchema,
  CreateAnnotationSchema,
  UpdateAnnotationSchema,
} from '@polyflow/contracts/annotations';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteDocs } from '../../http/openapi.ts';
import { CONSOLE_BODY_LIMIT, NoBodySchema, parseBody } from '../../http/validation.ts';
import { requireActor, requireUser } from '../auth/guard.ts';
import type { AnnotationService } from './service.ts';

const paramsOf = (request: FastifyRequest) => request.params as { id: string; annotationId: string };

/**
 * Annotations under /api/v1/projects/:id/annotations, with a session: members read them, admins and the
 * owner write them (a deploy script logs in and posts one: docs/timezone.md, "Annotations").
 */
export async function annotationRoutes(
  app: FastifyInstance,
  { annotations }: { annotations: AnnotationService },
) {
  const doc = (
    summary: string,
    body: z.ZodType | undefined,
    responses: RouteDocs['responses'],
    description?: string,
  ) => ({
    bodyLimit: CONSOLE_BODY_LIMIT,
    config: { docs: { summary, description, tag: 'Annotations', auth: 'session' as const, body, responses } },
  });
  const one = (description: string) => ({ description, schema: AnnotationSchema });

  app.get(
    '/projects/:id/annotations',
    doc('List the annotations', undefined, {
      200: { description: "The project's annotations by start date.", schema: AnnotationListSchema },
    }),
    async (request) => {
      const user = await requireUser(request);
      return { annotations: await annotations.list(user.id, paramsOf(request).id) };
    },
  );

  app.post(
    '/projects/:id/annotations',
    doc(
      'Add an annotation',
      CreateAnnotationSchema,
      { 201: one('The new annotation.') },
      'A note of at most 280 characters on a date of the project’s time zone, with an optional end date (both included); dates from 2015-01-01 to a year after today.',
    ),
    async (request, reply) => {
      const actor = await requireActor(request);
      const input = parseBody(CreateAnnotationSchema, request.body);
      return reply.status(201).send(await annotations.create(actor, paramsOf(request).id, input));
    },
  );

  app.patch(
    '/projects/:id/annotations/:annotationId',
    doc('Change an annotation', UpdateAnnotationSchema, { 200: one('The annotation as changed.') }),
    async (request) => {
      const actor = await requireActor(request);
      const change = parseBody(UpdateAnnotationSchema, request.body);
      const { id, annotationId } = paramsOf(request);
      return annotations.update(actor, id, annotationId, change);
    },
  );

  app.delete(
    '/projects/:id/annotations/:annotationId',
    doc('Delete an annotation', NoBodySchema, { 204: { description: 'Deleted.' } }),
    async (request, reply) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      const { id, annotationId } = paramsOf(request);
      await annotations.remove(actor, id, annotationId);
      return reply.status(204).send();
    },
  );
}
