import {
  CreatedReadTokenSchema,
  CreateReadTokenSchema,
  ReadTokenListSchema,
} from '@polyflow/contracts/projects';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteDocs } from '../../http/openapi.ts';
import { CONSOLE_BODY_LIMIT, NoBodySchema, parseBody } from '../../http/validation.ts';
import { requireActor, requireUser } from '../auth/guard.ts';
import type { ReadTokenService } from './service.ts';

const CreateBody = CreateReadTokenSchema.strict();

const paramsOf = (request: FastifyRequest) => request.params as { id: string; tokenId: string };

/** Read tokens under /api/v1/projects/:id: managed by the project's owner with a console session. */
export async function readTokenRoutes(
  app: FastifyInstance,
  { readTokens }: { readTokens: ReadTokenService },
) {
  const doc = (summary: string, body: z.ZodType | undefined, responses: RouteDocs['responses']) => ({
    bodyLimit: CONSOLE_BODY_LIMIT,
    config: { docs: { summary, tag: 'Data access', auth: 'session' as const, body, responses } },
  });

  app.post(
    '/projects/:id/read-tokens',
    doc('Create a read token', CreateBody, {
      201: { description: 'The token: shown this once only.', schema: CreatedReadTokenSchema },
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      const { name } = parseBody(CreateBody, request.body);
      return reply.status(201).send(await readTokens.create(actor, paramsOf(request).id, name));
    },
  );

  app.get(
    '/projects/:id/read-tokens',
    doc('List the read tokens (without their secrets)', undefined, {
      200: { description: "The project's read tokens.", schema: ReadTokenListSchema },
    }),
    async (request) => {
      const user = await requireUser(request);
      return { readTokens: await readTokens.list(user.id, paramsOf(request).id) };
    },
  );

  app.delete(
    '/projects/:id/read-tokens/:tokenId',
    doc('Revoke a read token', NoBodySchema, {
      204: { description: 'Revoked: the token stops working at once.' },
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      const { id, tokenId } = paramsOf(request);
      await readTokens.revoke(actor, id, tokenId);
      return reply.status(204).send();
    },
  );
}
