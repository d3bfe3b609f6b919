import {
  AcceptInvitationSchema,
  ChangeRoleSchema,
  CreateInvitationSchema,
  TransferSchema,
} from '@polyflow/contracts/members';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONSOLE_BODY_LIMIT, NoBodySchema, parseBody } from '../../http/validation.ts';
import { requireActor } from '../auth/guard.ts';
import type { MemberService } from './service.ts';

const InviteBody = CreateInvitationSchema.strict();
const AcceptBody = AcceptInvitationSchema.strict();
const RoleBody = ChangeRoleSchema.strict();
const TransferBody = TransferSchema.strict();

type Params = { id: string; userId: string; invitationId: string };
const paramsOf = (request: FastifyRequest) => request.params as Params;

/** Members, invitations and ownership under /api/v1 (docs/teams.md); each needs a console session. */
export async function memberRoutes(app: FastifyInstance, { members }: { members: MemberService }) {
  const options = { bodyLimit: CONSOLE_BODY_LIMIT };

  app.get('/projects/:id/members', async (request) => {
    const actor = await requireActor(request);
    return members.list(actor, paramsOf(request).id);
  });

  app.post('/projects/:id/invitations', options, async (request, reply) => {
    const actor = await requireActor(request);
    const body = parseBody(InviteBody, request.body);
    return reply.status(201).send(await members.invite(actor, paramsOf(request).id, body));
  });

  app.post('/projects/:id/invitations/:invitationId/resend', options, async (request) => {
    const actor = await requireActor(request);
    parseBody(NoBodySchema, request.body);
    const { id, invitationId } = paramsOf(request);
    return members.resend(actor, id, invitationId);
  });

  app.delete('/projects/:id/invitations/:invitationId', options, async (request, reply) => {
    const actor = await requireActor(request);
    parseBody(NoBodySchema, request.body);
    const { id, invitationId } = paramsOf(request);
    await members.revoke(actor, id, invitationId);
    return reply.status(204).send();
  });

  app.post('/invitations/accept', options, async (request) => {
    const actor = await requireActor(request);
    const { token } = parseBody(AcceptBody, request.body);
    return members.accept(actor, token);
  });

  app.patch('/projects/:id/members/:userId', options, async (request) => {
    const actor = await requireActor(request);
    const { role } = parseBody(RoleBody, request.body);
    const { id, userId } = paramsOf(request);
    return members.changeRole(actor, id, userId, role);
  });

  // A member may remove themselves: leaving.
  app.delete('/projects/:id/members/:userId', options, async (request, reply) => {
    const actor = await requireActor(request);
    parseBody(NoBodySchema, request.body);
    const { id, userId } = paramsOf(request);
    await members.remove(actor, id, userId);
    return reply.status(204).send();
  });

  app.post('/projects/:id/transfer', options, async (request) => {
    const actor = await requireActor(request);
    const { userId } = parseBody(TransferBody, request.body);
    return members.transfer(actor, paramsOf(request).id, userId);
  });
}
