import { CreateReadTokenSchema } from '@polyflow/contracts/projects';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONSOLE_BODY_LIMIT, NoBodySchema, parseBody } from '../../http/validation.ts';
import { requireActor, requireUser } from '../auth/guard.ts';
import type { ReadTokenService } from './service.ts';

const CreateBody = CreateReadTokenSchema.strict();

const paramsOf = (request: FastifyRequest) => request.params as { id: string; tokenId: string };

/** Read tokens under /api/v1/projects/:id: managed by the project's admins and owner with a console session. */
export async function readTokenRoutes(
  app: FastifyInstance,
  { readTokens }: { readTokens: ReadTokenService },
) {
  const options = { bodyLimit: CONSOLE_BODY_LIMIT };

  app.post('/projects/:id/read-tokens', options, async (request, reply) => {
    const actor = await requireActor(request);
    const { name } = parseBody(CreateBody, request.body);
    return reply.status(201).send(await readTokens.create(actor, paramsOf(request).id, name));
  });

  app.get('/projects/:id/read-tokens', async (request) => {
    const user = await requireUser(request);
    return { readTokens: await readTokens.list(user.id, paramsOf(request).id) };
  });

  app.delete('/projects/:id/read-tokens/:tokenId', options, async (request, reply) => {
    const actor = await requireActor(request);
    parseBody(NoBodySchema, request.body);
    const { id, tokenId } = paramsOf(request);
    await readTokens.revoke(actor, id, tokenId);
    return reply.status(204).send();
  });
}
