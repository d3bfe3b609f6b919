import {
  CreateProjectSchema,
  DomainInputSchema,
  ForgetSchema,
  ProjectSettingsSchema,
} from '@polyflow/contracts/projects';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONSOLE_BODY_LIMIT, NoBodySchema, parseBody } from '../../http/validation.ts';
import { requireActor, requireUser } from '../auth/guard.ts';
import type { ProjectService } from './service.ts';

const CreateBody = CreateProjectSchema.strict();
const DomainBody = DomainInputSchema.strict();
const SettingsBody = ProjectSettingsSchema.strict();

const projectIdOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** Project routes under /api/v1; each one requires a session and answers members as their role allows. */
export async function projectRoutes(app: FastifyInstance, { projects }: { projects: ProjectService }) {
  const options = { bodyLimit: CONSOLE_BODY_LIMIT };

  app.get('/projects', async (request) => {
    const user = await requireUser(request);
    return { projects: await projects.listProjects(user.id) };
  });

  app.post('/projects', options, async (request, reply) => {
    const actor = await requireActor(request);
    const { name } = parseBody(CreateBody, request.body);
    return reply.status(201).send(await projects.createProject(actor, name));
  });

  app.post('/projects/:id/api-key', options, async (request) => {
    const actor = await requireActor(request);
    parseBody(NoBodySchema, request.body);
    return projects.createApiKey(actor, projectIdOf(request));
  });

  app.delete('/projects/:id/api-key', options, async (request) => {
    const actor = await requireActor(request);
    parseBody(NoBodySchema, request.body);
    return projects.revokeApiKey(actor, projectIdOf(request));
  });

  app.patch('/projects/:id/domains/add', options, async (request) => {
    const actor = await requireActor(request);
    const { domain } = parseBody(DomainBody, request.body);
    return projects.addDomain(actor, projectIdOf(request), domain);
  });

  app.patch('/projects/:id/domains/delete', options, async (request) => {
    const actor = await requireActor(request);
    const { domain } = parseBody(DomainBody, request.body);
    return projects.deleteDomain(actor, projectIdOf(request), domain);
  });

  app.patch('/projects/:id', options, async (request) => {
    const actor = await requireActor(request);
    const { retentionDays } = parseBody(SettingsBody, request.body);
    return projects.setRetentionDays(actor, projectIdOf(request), retentionDays);
  });

  // A data-subject request: every event of this wallet or SDK user, including those not loaded yet.
  app.post('/projects/:id/forget', options, async (request) => {
    const actor = await requireActor(request);
    const subject = parseBody(ForgetSchema, request.body);
    return projects.forget(actor, projectIdOf(request), subject);
  });

  app.delete('/projects/:id', options, async (request, reply) => {
    const actor = await requireActor(request);
    parseBody(NoBodySchema, request.body);
    await projects.deleteProject(actor, projectIdOf(request));
    return reply.status(204).send();
  });
}
