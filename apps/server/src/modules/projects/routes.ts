import {
  CreateProjectSchema,
  DomainInputSchema,
  ForgetSchema,
  ProjectSettingsSchema,
} from '@polyflow/contracts/projects';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONSOLE_BODY_LIMIT, NoBodySchema, parseBody } from '../../http/validation.ts';
import { requireUser } from '../auth/guard.ts';
import type { ProjectService } from './service.ts';

const CreateBody = CreateProjectSchema.strict();
const DomainBody = DomainInputSchema.strict();
const SettingsBody = ProjectSettingsSchema.strict();

const projectIdOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** Project routes under /api/v1; each one requires a session and answers only the owner. */
export async function projectRoutes(app: FastifyInstance, { projects }: { projects: ProjectService }) {
  const options = { bodyLimit: CONSOLE_BODY_LIMIT };

  app.get('/projects', async (request) => {
    const user = await requireUser(request);
    return { projects: await projects.listProjects(user.id) };
  });

  app.post('/projects', options, async (request, reply) => {
    const user = await requireUser(request);
    const { name } = parseBody(CreateBody, request.body);
    return reply.status(201).send(await projects.createProject(user.id, name));
  });

  app.post('/projects/:id/api-key', options, async (request) => {
    const user = await requireUser(request);
    parseBody(NoBodySchema, request.body);
    return projects.createApiKey(user.id, projectIdOf(request));
  });

  app.delete('/projects/:id/api-key', options, async (request) => {
    const user = await requireUser(request);
    parseBody(NoBodySchema, request.body);
    return projects.revokeApiKey(user.id, projectIdOf(request));
  });

  app.patch('/projects/:id/domains/add', options, async (request) => {
    const user = await requireUser(request);
    const { domain } = parseBody(DomainBody, request.body);
    return projects.addDomain(user.id, projectIdOf(request), domain);
  });

  app.patch('/projects/:id/domains/delete', options, async (request) => {
    const user = await requireUser(request);
    const { domain } = parseBody(DomainBody, request.body);
    return projects.deleteDomain(user.id, projectIdOf(request), domain);
  });

  app.patch('/projects/:id', options, async (request) => {
    const user = await requireUser(request);
    const { retentionDays } = parseBody(SettingsBody, request.body);
    return projects.setRetentionDays(user.id, projectIdOf(request), retentionDays);
  });

  // A data-subject request: every event of this wallet or SDK user, including those not loaded yet.
  app.post('/projects/:id/forget', options, async (request) => {
    const user = await requireUser(request);
    const subject = parseBody(ForgetSchema, request.body);
    return projects.forget(user.id, projectIdOf(request), subject);
  });

  app.delete('/projects/:id', options, async (request, reply) => {
    const user = await requireUser(request);
    parseBody(NoBodySchema, request.body);
    await projects.deleteProject(user.id, projectIdOf(request));
    return reply.status(204).send();
  });
}
