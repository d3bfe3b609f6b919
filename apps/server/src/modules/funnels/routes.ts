import {
  CreateFunnelSchema,
  FunnelListSchema,
  FunnelSchema,
  UpdateFunnelSchema,
} from '@polyflow/contracts/funnels';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteDocs } from '../../http/openapi.ts';
import { CONSOLE_BODY_LIMIT, NoBodySchema, parseBody } from '../../http/validation.ts';
import { readerUserId } from '../../reading/reader.ts';
import { requireActor } from '../auth/guard.ts';
import { requireReader } from '../read-tokens/guard.ts';
import type { FunnelService } from './service.ts';

const paramsOf = (request: FastifyRequest) => request.params as { id: string; funnelId: string };

/**
 * Saved custom funnels under /api/v1/projects/:id/funnels (docs/funnels.md): members and read tokens read
 * them, admins and the owner write them (a session). Their answer is the GraphQL query `customFunnel`.
 */
export async function funnelRoutes(app: FastifyInstance, { funnels }: { funnels: FunnelService }) {
  const doc = (
    summary: string,
    auth: 'session' | 'session-or-read-token',
    body: z.ZodType | undefined,
    responses: RouteDocs['responses'],
    description?: string,
  ) => ({
    bodyLimit: CONSOLE_BODY_LIMIT,
    config: { docs: { summary, description, tag: 'Funnels', auth, body, responses } },
  });
  const one = (description: string) => ({ description, schema: FunnelSchema });
  const STEPS =
    'Steps (2 to 8, in order), each {kind: "page", path} with a path pattern (`*` one segment, `**` any), {kind: "event", name, property?: {key, value}}, {kind: "wallet_connected"} or {kind: "transaction", stage}; windowHours 1 to 720.';

  app.get(
    '/projects/:id/funnels',
    doc('List the funnels', 'session-or-read-token', undefined, {
      200: { description: "The project's saved funnels, oldest first.", schema: FunnelListSchema },
    }),
    async (request) => {
      const { id } = paramsOf(request);
      const userId = readerUserId(await requireReader(request), id);
      return { funnels: await funnels.list(userId, id) };
    },
  );

  app.get(
    '/projects/:id/funnels/:funnelId',
    doc('Get a funnel', 'session-or-read-token', undefined, { 200: one('The funnel.') }),
    async (request) => {
      const { id, funnelId } = paramsOf(request);
      const userId = readerUserId(await requireReader(request), id);
      return funnels.get(userId, id, funnelId);
    },
  );

  app.post(
    '/projects/:id/funnels',
    doc(
      'Save a funnel',
      'session',
      CreateFunnelSchema,
      { 201: one('The new funnel.') },
      `At most 50 per project. ${STEPS}`,
    ),
    async (request, reply) => {
      const actor = await requireActor(request);
      const input = parseBody(CreateFunnelSchema, request.body);
      return reply.status(201).send(await funnels.create(actor, paramsOf(request).id, input));
    },
  );

  app.patch(
    '/projects/:id/funnels/:funnelId',
    doc('Change a funnel', 'session', UpdateFunnelSchema, { 200: one('The funnel as changed.') }, STEPS),
    async (request) => {
      const actor = await requireActor(request);
      const change = parseBody(UpdateFunnelSchema, request.body);
      const { id, funnelId } = paramsOf(request);
      return funnels.update(actor, id, funnelId, change);
    },
  );

  app.delete(
    '/projects/:id/funnels/:funnelId',
    doc('Delete a funnel', 'session', NoBodySchema, { 204: { description: 'Deleted.' } }),
    async (request, reply) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      const { id, funnelId } = paramsOf(request);
      await funnels.remove(actor, id, funnelId);
      return reply.status(204).send();
    },
  );
}
