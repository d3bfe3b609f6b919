import { GoalInputSchema, GoalListSchema, GoalSchema } from '@polyflow/contracts/goals';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteDocs } from '../../http/openapi.ts';
import { CONSOLE_BODY_LIMIT, NoBodySchema, parseBody } from '../../http/validation.ts';
import { readerUserId } from '../../reading/reader.ts';
import { requireActor } from '../auth/guard.ts';
import { requireReader } from '../read-tokens/guard.ts';
import type { GoalService } from './service.ts';

const paramsOf = (request: FastifyRequest) => request.params as { id: string; goalId: string };

/**
 * Goals under /api/v1/projects/:id/goals (docs/goals.md): members and read tokens list them, admins and
 * the owner write them with a session.
 */
export async function goalRoutes(app: FastifyInstance, { goals }: { goals: GoalService }) {
  const doc = (
    summary: string,
    body: z.ZodType | undefined,
    responses: RouteDocs['responses'],
    description?: string,
    auth: 'session' | 'session-or-read-token' = 'session',
  ) => ({
    bodyLimit: CONSOLE_BODY_LIMIT,
    config: { docs: { summary, description, tag: 'Goals', auth, body, responses } },
  });
  const one = (description: string) => ({ description, schema: GoalSchema });
  const DEFINITION =
    'A goal is a name (1–64 characters) and either a custom event name (kind `event`, optionally with one property key and value) or a page path pattern (kind `path`: `*` one segment, `**` the rest). At most 50 per project.';

  app.get(
    '/projects/:id/goals',
    doc(
      'List the goals',
      undefined,
      { 200: { description: "The project's goals, oldest first.", schema: GoalListSchema } },
      undefined,
      'session-or-read-token',
    ),
    async (request) => {
      const reader = await requireReader(request);
      const { id } = paramsOf(request);
      return { goals: await goals.list(readerUserId(reader, id), id) };
    },
  );

  app.post(
    '/projects/:id/goals',
    doc('Add a goal', GoalInputSchema, { 201: one('The new goal.') }, DEFINITION),
    async (request, reply) => {
      const actor = await requireActor(request);
      const input = parseBody(GoalInputSchema, request.body);
      return reply.status(201).send(await goals.create(actor, paramsOf(request).id, input));
    },
  );

  app.put(
    '/projects/:id/goals/:goalId',
    doc(
      'Change a goal',
      GoalInputSchema,
      { 200: one('The goal as changed.') },
      `Replaces the goal's definition. ${DEFINITION}`,
    ),
    async (request) => {
      const actor = await requireActor(request);
      const input = parseBody(GoalInputSchema, request.body);
      const { id, goalId } = paramsOf(request);
      return goals.update(actor, id, goalId, input);
    },
  );

  app.delete(
    '/projects/:id/goals/:goalId',
    doc('Delete a goal', NoBodySchema, { 204: { description: 'Deleted.' } }),
    async (request, reply) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      const { id, goalId } = paramsOf(request);
      await goals.remove(actor, id, goalId);
      return reply.status(204).send();
    },
  );
}
