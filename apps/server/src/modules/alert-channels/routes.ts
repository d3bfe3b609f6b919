import {
  AlertChannelListSchema,
  AlertDeliveryListSchema,
  CreateAlertChannelSchema,
  CreatedAlertChannelSchema,
  SentTestNoticeSchema,
} from '@polyflow/contracts/alert-channels';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteDocs } from '../../http/openapi.ts';
import { CONSOLE_BODY_LIMIT, NoBodySchema, parseBody } from '../../http/validation.ts';
import { requireActor, requireUser } from '../auth/guard.ts';
import type { AlertChannelService } from './service.ts';

const paramsOf = (request: FastifyRequest) => request.params as { id: string; channelId: string };

/** Alert channels under /api/v1/projects/:id (docs/alerts.md): admins and the owner change, members read. */
export async function alertChannelRoutes(
  app: FastifyInstance,
  { alertChannels }: { alertChannels: AlertChannelService },
) {
  const doc = (summary: string, body: z.ZodType | undefined, responses: RouteDocs['responses']) => ({
    bodyLimit: CONSOLE_BODY_LIMIT,
    config: { docs: { summary, tag: 'Alerts', auth: 'session' as const, body, responses } },
  });

  app.post(
    '/projects/:id/alert-channels',
    doc('Create an alert channel', CreateAlertChannelSchema, {
      201: {
        description: "The channel; a webhook's signing secret is in this answer only.",
        schema: CreatedAlertChannelSchema,
      },
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      const input = parseBody(CreateAlertChannelSchema, request.body);
      return reply.status(201).send(await alertChannels.create(actor, paramsOf(request).id, input));
    },
  );

  app.get(
    '/projects/:id/alert-channels',
    doc('List the alert channels (without secrets)', undefined, {
      200: { description: "The project's alert channels.", schema: AlertChannelListSchema },
    }),
    async (request) => {
      const user = await requireUser(request);
      return { alertChannels: await alertChannels.list(user.id, paramsOf(request).id) };
    },
  );

  app.delete(
    '/projects/:id/alert-channels/:channelId',
    doc('Delete an alert channel', NoBodySchema, {
      204: { description: 'Deleted, with its notices not delivered yet and its delivery log.' },
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      const { id, channelId } = paramsOf(request);
      await alertChannels.remove(actor, id, channelId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/projects/:id/alert-channels/:channelId/test',
    doc('Send a test notice to an alert channel', NoBodySchema, {
      202: {
        description:
          'Queued: the notice (type "test") is delivered in the background; its attempts are in the log.',
        schema: SentTestNoticeSchema,
      },
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      const { id, channelId } = paramsOf(request);
      return reply.status(202).send(await alertChannels.sendTest(actor, id, channelId));
    },
  );

  app.get(
    '/projects/:id/alert-channels/:channelId/deliveries',
    doc("An alert channel's delivery log", undefined, {
      200: {
        description: 'Attempts made and attempts due, newest first (the last 200).',
        schema: AlertDeliveryListSchema,
      },
    }),
    async (request) => {
      const user = await requireUser(request);
      const { id, channelId } = paramsOf(request);
      return { deliveries: await alertChannels.deliveries(user.id, id, channelId) };
    },
  );
}
