import {
  AcceptInvitationSchema,
  ChangeRoleSchema,
  CreatedInvitationSchema,
  CreateInvitationSchema,
  MemberListSchema,
  MemberSchema,
  TransferSchema,
} from '@polyflow/contracts/members';
import { ProjectSchema } from '@polyflow/contracts/projects';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteDocs } from '../../http/openapi.ts';
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
  /** The route's OpenAPI entry: a session; roles as docs/teams.md says, non-members 404. */
  const doc = (
    summary: string,
    body: z.ZodType | undefined,
    responses: RouteDocs['responses'],
    description?: string,
  ) => ({
    bodyLimit: CONSOLE_BODY_LIMIT,
    config: { docs: { summary, description, tag: 'Members', auth: 'session' as const, body, responses } },
  });
  const invitation = (description: string) => ({ description, schema: CreatedInvitationSchema });

  app.get(
    '/projects/:id/members',
    doc(
      'List the members and pending invitations',
      undefined,
      {
        200: {
          description: 'Members (owner first) and invitations not yet accepted, revoked or expired.',
          schema: MemberListSchema,
        },
      },
      'Any member.',
    ),
    async (request) => {
      const actor = await requireActor(request);
      return members.list(actor, paramsOf(request).id);
    },
  );

  app.post(
    '/projects/:id/invitations',
    doc(
      'Invite an address with a role',
      InviteBody,
      { 201: invitation('Invited: the link (7 days, single use) is emailed.') },
      'Admins and the owner. 409 for a member or a pending invitation; at most 50 members, 50 pending invitations and 20 invitation emails an hour per project.',
    ),
    async (request, reply) => {
      const actor = await requireActor(request);
      const body = parseBody(InviteBody, request.body);
      return reply.status(201).send(await members.invite(actor, paramsOf(request).id, body));
    },
  );

  app.post(
    '/projects/:id/invitations/:invitationId/resend',
    doc(
      'Send an invitation again',
      NoBodySchema,
      { 200: invitation('Sent again with a new link for 7 days; the earlier link stops working.') },
      'Admins and the owner.',
    ),
    async (request) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      const { id, invitationId } = paramsOf(request);
      return members.resend(actor, id, invitationId);
    },
  );

  app.delete(
    '/projects/:id/invitations/:invitationId',
    doc(
      'Revoke an invitation',
      NoBodySchema,
      { 204: { description: 'Revoked: the link stops working at once.' } },
      'Admins and the owner.',
    ),
    async (request, reply) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      const { id, invitationId } = paramsOf(request);
      await members.revoke(actor, id, invitationId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/invitations/accept',
    doc(
      'Accept an invitation',
      AcceptBody,
      { 200: { description: 'The project, with the role the invitation gave.', schema: ProjectSchema } },
      'A session of the invited address. 400 INVITATION_INVALID for a used, expired, revoked or unknown token.',
    ),
    async (request) => {
      const actor = await requireActor(request);
      const { token } = parseBody(AcceptBody, request.body);
      return members.accept(actor, token);
    },
  );

  app.patch(
    '/projects/:id/members/:userId',
    doc(
      "Change a member's role",
      RoleBody,
      { 200: { description: 'The member with the new role.', schema: MemberSchema } },
      'Admins and the owner; never the owner (a transfer moves ownership).',
    ),
    async (request) => {
      const actor = await requireActor(request);
      const { role } = parseBody(RoleBody, request.body);
      const { id, userId } = paramsOf(request);
      return members.changeRole(actor, id, userId, role);
    },
  );

  // A member may remove themselves: leaving.
  app.delete(
    '/projects/:id/members/:userId',
    doc(
      'Remove a member, or leave',
      NoBodySchema,
      { 204: { description: 'Removed: their next request is refused.' } },
      'Admins and the owner; any member for themselves (leaving); never the owner.',
    ),
    async (request, reply) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      const { id, userId } = paramsOf(request);
      await members.remove(actor, id, userId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/projects/:id/transfer',
    doc(
      'Transfer the project to an admin',
      TransferBody,
      { 200: { description: 'The project: the caller is now an admin of it.', schema: ProjectSchema } },
      'The owner; the new owner must be an admin of the project.',
    ),
    async (request) => {
      const actor = await requireActor(request);
      const { userId } = parseBody(TransferBody, request.body);
      return members.transfer(actor, paramsOf(request).id, userId);
    },
  );
}
