import {
  type ReportKind,
  ReportSubscriptionListSchema,
  ReportSubscriptionSchema,
  UpdateReportSubscriptionSchema,
} from '@polyflow/contracts/reports';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CONSOLE_BODY_LIMIT, parseBody } from '../../http/validation.ts';
import { requireActor } from '../auth/guard.ts';
import type { ReportService, UnsubscribeOutcome } from './service.ts';

const UpdateBody = UpdateReportSubscriptionSchema.strict();
const UnsubscribeQuery = z.object({ token: z.string() });

const paramsOf = (request: FastifyRequest) => request.params as { id: string };

const KIND_WORDS: Record<ReportKind, string> = { weekly: 'weekly', monthly: 'monthly' };
const INVALID_MESSAGE =
  'This unsubscribe link is not valid (cut short, changed, or its project or account no longer exists). Log in to Polyflow to change your reports on the Alerts screen.';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The unsubscribe answer: a small page readable without the console (no script, no external asset). */
function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · Polyflow</title></head>
<body style="margin:0;background:#ffffff;color:#1f2328;font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;">
<main style="max-width:560px;margin:0 auto;padding:48px 20px;">
<p style="margin:0 0 8px;font-size:14px;color:#57606a;">Polyflow</p>
<h1 style="margin:0 0 16px;font-size:24px;">${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
}

function answerUnsubscribe(request: FastifyRequest, reply: FastifyReply, outcome: UnsubscribeOutcome) {
  const wantsJson =
    /application\/json/.test(request.headers.accept ?? '') &&
    !/text\/html/.test(request.headers.accept ?? '');
  reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
  if (outcome.status === 'invalid') {
    reply.status(400);
    if (wantsJson) return reply.send({ errorCode: 'REPORT_LINK_INVALID', message: INVALID_MESSAGE });
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          'This link does not work',
          `<p style="font-size:16px;line-height:1.5;">${escapeHtml(INVALID_MESSAGE)}</p><p style="font-size:13px;color:#57606a;">Error code: REPORT_LINK_INVALID</p>`,
        ),
      );
  }
  const kind = KIND_WORDS[outcome.kind];
  const message =
    outcome.status === 'turned-off'
      ? `${outcome.email} will no longer get ${kind} reports of the project "${outcome.projectName}".`
      : `${kind[0]?.toUpperCase()}${kind.slice(1)} reports of the project "${outcome.projectName}" were already off for ${outcome.email}.`;
  return reply
    .type('text/html; charset=utf-8')
    .send(
      page(
        outcome.status === 'turned-off' ? 'Unsubscribed' : 'Already unsubscribed',
        `<p style="font-size:16px;line-height:1.5;">${escapeHtml(message)}</p><p style="font-size:14px;line-height:1.5;color:#57606a;">Other reports and alerts are unchanged. Turn reports back on from the project's Alerts screen in the console.</p>`,
      ),
    );
}

/** Report subscriptions under /api/v1 (docs/reports.md). */
export async function reportRoutes(app: FastifyInstance, { reports }: { reports: ReportService }) {
  const tag = 'Reports';

  app.get(
    '/projects/:id/report-subscriptions',
    {
      config: {
        docs: {
          summary: "List the members' email report choices",
          description:
            'Any member: every member of the project, with weekly and monthly off unless they chose them.',
          tag,
          auth: 'session',
          responses: {
            200: { description: 'Every member and their choice.', schema: ReportSubscriptionListSchema },
          },
        },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      return reports.list(actor, paramsOf(request).id);
    },
  );

  app.put(
    '/projects/:id/report-subscriptions/me',
    {
      bodyLimit: CONSOLE_BODY_LIMIT,
      config: {
        docs: {
          summary: 'Choose your own weekly and monthly reports',
          description: 'Any member, for themselves only.',
          tag,
          auth: 'session',
          body: UpdateBody,
          responses: { 200: { description: "The caller's row.", schema: ReportSubscriptionSchema } },
        },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      const choice = parseBody(UpdateBody, request.body);
      return reports.updateMine(actor, paramsOf(request).id, choice);
    },
  );

  app.get(
    '/reports/unsubscribe',
    {
      config: {
        docs: {
          summary: 'Turn off one email report from its link',
          description:
            "No login: the signed token of a report's link names one member, project and kind. Answers an HTML page; 400 REPORT_LINK_INVALID, and nothing changed, for a token this server did not sign.",
          tag,
          auth: 'none',
          query: UnsubscribeQuery,
          responses: {
            200: {
              description: 'Turned off (or already off): a page saying which.',
              contentTypes: ['text/html'],
            },
            400: {
              description:
                'Not a valid link: a page naming REPORT_LINK_INVALID (`{errorCode, message}` for a client that accepts only application/json).',
              contentTypes: ['text/html'],
            },
          },
        },
      },
    },
    async (request, reply) => {
      const token = (request.query as { token?: unknown }).token;
      return answerUnsubscribe(request, reply, await reports.unsubscribe(token));
    },
  );
}
