import {
  AlertFiringListSchema,
  AlertPreviewSchema,
  AlertRuleListSchema,
  AlertRulePreviewInputSchema,
  AlertRuleSchema,
  CreateAlertRuleSchema,
  UpdateAlertRuleSchema,
} from '@polyflow/contracts/alert-rules';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteDocs } from '../../http/openapi.ts';
import { CONSOLE_BODY_LIMIT, NoBodySchema, parseBody } from '../../http/validation.ts';
import { requireActor, requireUser } from '../auth/guard.ts';
import type { AlertRuleService } from './service.ts';

const paramsOf = (request: FastifyRequest) => request.params as { id: string; ruleId: string };

/** Alert rules under /api/v1/projects/:id (docs/alerts.md#rules): members read, admins and the owner change. */
export async function alertRuleRoutes(
  app: FastifyInstance,
  { alertRules }: { alertRules: AlertRuleService },
) {
  const doc = (summary: string, body: z.ZodType | undefined, responses: RouteDocs['responses']) => ({
    bodyLimit: CONSOLE_BODY_LIMIT,
    config: { docs: { summary, tag: 'Alerts', auth: 'session' as const, body, responses } },
  });

  app.post(
    '/projects/:id/alert-rules',
    doc('Create an alert rule', CreateAlertRuleSchema, {
      201: { description: 'The rule, evaluated from the next evaluation on.', schema: AlertRuleSchema },
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      const input = parseBody(CreateAlertRuleSchema, request.body);
      return reply.status(201).send(await alertRules.create(actor, paramsOf(request).id, input));
    },
  );

  app.get(
    '/projects/:id/alert-rules',
    doc('List the alert rules', undefined, {
      200: { description: "The project's rules, oldest first.", schema: AlertRuleListSchema },
    }),
    async (request) => {
      const user = await requireUser(request);
      return { alertRules: await alertRules.list(user.id, paramsOf(request).id) };
    },
  );

  app.post(
    '/projects/:id/alert-rules/preview',
    doc('Preview a rule over the last 7 days', AlertRulePreviewInputSchema, {
      200: { description: 'What the rule would have fired, earliest first.', schema: AlertPreviewSchema },
    }),
    async (request) => {
      const user = await requireUser(request);
      const input = parseBody(AlertRulePreviewInputSchema, request.body);
      return { firings: await alertRules.preview(user.id, paramsOf(request).id, input) };
    },
  );

  app.patch(
    '/projects/:id/alert-rules/:ruleId',
    doc('Change, pause or resume an alert rule', UpdateAlertRuleSchema, {
      200: { description: 'The rule as changed.', schema: AlertRuleSchema },
    }),
    async (request) => {
      const actor = await requireActor(request);
      const patch = parseBody(UpdateAlertRuleSchema, request.body);
      const { id, ruleId } = paramsOf(request);
      return alertRules.update(actor, id, ruleId, patch);
    },
  );

  app.delete(
    '/projects/:id/alert-rules/:ruleId',
    doc('Delete an alert rule', NoBodySchema, {
      204: { description: 'Deleted, with its firings.' },
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      const { id, ruleId } = paramsOf(request);
      await alertRules.remove(actor, id, ruleId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/projects/:id/alert-rules/:ruleId/firings',
    doc("List a rule's firings", undefined, {
      200: { description: 'The latest 200 firings, newest first.', schema: AlertFiringListSchema },
    }),
    async (request) => {
      const user = await requireUser(request);
      const { id, ruleId } = paramsOf(request);
      return { firings: await alertRules.firings(user.id, id, ruleId) };
    },
  );
}
