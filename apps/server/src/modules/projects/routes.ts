import {
  CreateProjectSchema,
  DomainInputSchema,
  ForgetResultSchema,
  ForgetSchema,
  IgnoredWalletCodesSchema,
  ProjectListSchema,
  ProjectSchema,
  ProjectSettingsSchema,
} from '@polyflow/contracts/projects';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteDocs } from '../../http/openapi.ts';
import { CONSOLE_BODY_LIMIT, NoBodySchema, parseBody } from '../../http/validation.ts';
import { requireActor, requireUser } from '../auth/guard.ts';
import type { ProjectService } from './service.ts';

const CreateBody = CreateProjectSchema.strict();
const DomainBody = DomainInputSchema.strict();
const SettingsBody = ProjectSettingsSchema;
const WalletCodesBody = IgnoredWalletCodesSchema.strict();

const projectIdOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** Project routes under /api/v1; each one requires a session and answers members as their role allows. */
export async function projectRoutes(app: FastifyInstance, { projects }: { projects: ProjectService }) {
  /** The route's OpenAPI entry: a session of a member whose role allows it (docs/teams.md); others' projects answer 404. */
  const doc = (
    summary: string,
    body: z.ZodType | undefined,
    responses: RouteDocs['responses'],
    description?: string,
  ) => ({
    bodyLimit: CONSOLE_BODY_LIMIT,
    config: { docs: { summary, description, tag: 'Projects', auth: 'session' as const, body, responses } },
  });
  const project = (description: string) => ({ 200: { description, schema: ProjectSchema } });

  app.get(
    '/projects',
    doc('List your projects', undefined, {
      200: {
        description: 'The projects you are a member of, oldest first, each with your role.',
        schema: ProjectListSchema,
      },
    }),
    async (request) => {
      const user = await requireUser(request);
      return { projects: await projects.listProjects(user.id) };
    },
  );

  app.post(
    '/projects',
    doc('Create a project', CreateBody, {
      201: { description: 'The new project (no API key yet).', schema: ProjectSchema },
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      const { name } = parseBody(CreateBody, request.body);
      return reply.status(201).send(await projects.createProject(actor, name));
    },
  );

  app.post(
    '/projects/:id/api-key',
    doc(
      'Create or rotate the API key',
      NoBodySchema,
      project('The project with its new key; the old key stops working.'),
    ),
    async (request) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      return projects.createApiKey(actor, projectIdOf(request));
    },
  );

  app.delete(
    '/projects/:id/api-key',
    doc(
      'Revoke the API key',
      NoBodySchema,
      project('The project without a key: ingestion refuses its events.'),
    ),
    async (request) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      return projects.revokeApiKey(actor, projectIdOf(request));
    },
  );

  app.patch(
    '/projects/:id/domains/add',
    doc(
      'Whitelist a domain',
      DomainBody,
      project('The project with the domain added.'),
      'A domain, or a URL whose host is taken (`https://app.example.com/x` → `app.example.com`).',
    ),
    async (request) => {
      const actor = await requireActor(request);
      const { domain } = parseBody(DomainBody, request.body);
      return projects.addDomain(actor, projectIdOf(request), domain);
    },
  );

  app.patch(
    '/projects/:id/domains/delete',
    doc('Remove a whitelisted domain', DomainBody, project('The project without the domain.')),
    async (request) => {
      const actor = await requireActor(request);
      const { domain } = parseBody(DomainBody, request.body);
      return projects.deleteDomain(actor, projectIdOf(request), domain);
    },
  );

  app.patch(
    '/projects/:id',
    doc(
      'Set the retention and/or the time zone',
      SettingsBody,
      project('The project with its new settings.'),
      'Events older than `retentionDays` are deleted by the hourly pass; null keeps them forever. `timeZone` (an IANA name such as Europe/Berlin, or UTC) sets the days, weeks and dates of every chart (docs/timezone.md).',
    ),
    async (request) => {
      const actor = await requireActor(request);
      const settings = parseBody(SettingsBody, request.body);
      return projects.updateSettings(actor, projectIdOf(request), settings);
    },
  );

  app.put(
    '/projects/:id/ignored-wallet-codes',
    doc(
      'Set the ignored wallet codes',
      WalletCodesBody,
      project('The project with its new list, sorted.'),
      'Wallet errors with one of these RPC codes are stored but are not incidents, from the next event on; ' +
        'incidents of earlier events stay (docs/acquisition-and-incidents.md).',
    ),
    async (request) => {
      const actor = await requireActor(request);
      const { codes } = parseBody(WalletCodesBody, request.body);
      return projects.setIgnoredWalletCodes(actor, projectIdOf(request), codes);
    },
  );

  // A data-subject request: every event of this wallet or SDK user, including those not loaded yet.
  app.post(
    '/projects/:id/forget',
    doc('Delete every event of one wallet or one SDK user', ForgetSchema, {
      200: {
        description: 'How many events were deleted (stored and not yet loaded).',
        schema: ForgetResultSchema,
      },
    }),
    async (request) => {
      const actor = await requireActor(request);
      const subject = parseBody(ForgetSchema, request.body);
      return projects.forget(actor, projectIdOf(request), subject);
    },
  );

  app.delete(
    '/projects/:id',
    doc('Delete the project and all its events', NoBodySchema, { 204: { description: 'Deleted.' } }),
    async (request, reply) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      await projects.deleteProject(actor, projectIdOf(request));
      return reply.status(204).send();
    },
  );
}
