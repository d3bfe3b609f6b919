import {
  type CreatedInvitation,
  type CreateInvitation,
  type GrantableRole,
  INVITATION_TTL_DAYS,
  MAX_INVITATION_EMAILS_PER_HOUR,
  MAX_MEMBERS_PER_PROJECT,
  MAX_PENDING_INVITATIONS_PER_PROJECT,
  type Member,
  type MemberList,
} from '@polyflow/contracts/members';
import type { Project } from '@polyflow/contracts/projects';
import { isUniqueViolation } from '../../db/database.ts';
import type { ProjectInvitationsTable } from '../../db/schema.ts';
import { AppError, badRequest, forbidden, notFound, rateLimited } from '../../errors.ts';
import type { Actor, AuditRecorder, ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import { isId, newEmailToken, newId, sha256 } from '../../lib/ids.ts';
import type { MailService } from '../mail/service.ts';
import { invitationEmail } from './emails.ts';
import type { MemberStore } from './store.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export type MemberService = ReturnType<typeof createMemberService>;

export type MemberServiceDeps = {
  store: MemberStore;
  projects: ProjectAccess;
  mail: Pick<MailService, 'enqueue'>;
  audit: AuditRecorder & {
    countRecent(
      projectId: string,
      actions: readonly ('invitation.create' | 'invitation.resend')[],
      windowMs: number,
    ): Promise<number>;
  };
  clock: Clock;
  publicUrl: string;
  /** Called once a member is removed or leaves: their open live streams of the project end. */
  onMemberRemoved: (userId: string, projectId: string) => void;
};

const memberNotFound = () => notFound('Member not found.');
const invitationNotFound = () => notFound('Invitation not found.');
const invalidInvitation = () =>
  new AppError(
    400,
    'INVITATION_INVALID',
    'This invitation link is invalid, already used, revoked or expired.',
  );

/**
 * A project's members and invitations (docs/teams.md). Admins and the owner invite, resend, revoke,
 * change roles and remove members; nobody but a transfer makes an owner, and the owner is never removed
 * or demoted; any member may leave but the owner, who transfers first.
 */
export function createMemberService({
  store,
  projects,
  mail,
  audit,
  clock,
  publicUrl,
  onMemberRemoved,
}: MemberServiceDeps) {
  async function assertEmailRoom(projectId: string): Promise<void> {
    const sent = await audit.countRecent(projectId, ['invitation.create', 'invitation.resend'], HOUR_MS);
    if (sent >= MAX_INVITATION_EMAILS_PER_HOUR) {
      throw rateLimited(
        `A project can send at most ${MAX_INVITATION_EMAILS_PER_HOUR} invitation emails per hour; try again later.`,
        HOUR_MS / 1000,
      );
    }
  }

  async function sendInvitation(
    actor: Actor,
    project: Project,
    email: string,
    role: GrantableRole,
    token: string,
  ) {
    await mail.enqueue(
      invitationEmail({
        to: email,
        publicUrl,
        token,
        projectName: project.name,
        invitedBy: actor.email,
        role,
      }),
    );
  }

  /** The member `userId` of a project the actor may manage; 404 for anyone else. */
  async function targetMember(projectId: string, userId: string): Promise<Member> {
    const member = isId(userId) ? await store.findMember(projectId, userId) : null;
    if (!member) throw memberNotFound();
    return member;
  }

  return {
    async list(actor: Actor, projectId: string): Promise<MemberList> {
      await projects.getProjectFor(actor.id, projectId);
      const [members, invitations] = await Promise.all([
        store.listMembers(projectId),
        store.listPending(projectId, clock().toISOString()),
      ]);
      return { members, invitations };
    },

    async invite(
      actor: Actor,
      projectId: string,
      { email, role }: CreateInvitation,
    ): Promise<CreatedInvitation> {
      const project = await projects.getProjectFor(actor.id, projectId, 'manage');
      const now = clock();
      if (await store.isMemberEmail(projectId, email)) {
        throw new AppError(409, 'MEMBER_ALREADY_EXISTS', `${email} is already a member of this project.`);
      }
      const existing = await store.findInvitationByEmail(projectId, email);
      if (existing && existing.expires_at > now.toISOString()) {
        throw new AppError(
          409,
          'INVITATION_ALREADY_PENDING',
          `${email} already has a pending invitation; resend or revoke it.`,
        );
      }
      if ((await store.countMembers(projectId)) >= MAX_MEMBERS_PER_PROJECT) {
        throw badRequest(`A project can have at most ${MAX_MEMBERS_PER_PROJECT} members.`);
      }
      if (
        (await store.listPending(projectId, now.toISOString())).length >= MAX_PENDING_INVITATIONS_PER_PROJECT
      ) {
        throw badRequest(
          `A project can have at most ${MAX_PENDING_INVITATIONS_PER_PROJECT} pending invitations; revoke some first.`,
        );
      }
      await assertEmailRoom(projectId);
      const token = newEmailToken();
      const row: ProjectInvitationsTable = {
        id: newId(),
        project_id: projectId,
        email,
        role,
        token_hash: sha256(token),
        invited_by: actor.id,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS).toISOString(),
      };
      try {
        await store.insertInvitation(row);
      } catch (error) {
        // Two invitations of one address racing: the loser answers as if it came second.
        if (isUniqueViolation(error)) {
          throw new AppError(409, 'INVITATION_ALREADY_PENDING', `${email} already has a pending invitation.`);
        }
        throw error;
      }
      try {
        await sendInvitation(actor, project, email, role, token);
      } catch (error) {
        // No invitation without its email.
        await store.deleteInvitation(projectId, row.id);
        throw error;
      }
      await audit.record({ projectId, actor, action: 'invitation.create', target: email, details: { role } });
      return { id: row.id, email, role, expiresAt: row.expires_at };
    },

    /** A new link (the previous one stops working), valid 7 days from now. */
    async resend(actor: Actor, projectId: string, invitationId: string): Promise<CreatedInvitation> {
      const project = await projects.getProjectFor(actor.id, projectId, 'manage');
      const invitation = isId(invitationId) ? await store.findInvitation(projectId, invitationId) : null;
      const now = clock();
      if (!invitation || invitation.expires_at <= now.toISOString()) throw invitationNotFound();
      await assertEmailRoom(projectId);
      const token = newEmailToken();
      const expiresAt = new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS).toISOString();
      await sendInvitation(actor, project, invitation.email, invitation.role, token);
      await store.renewInvitation(invitation.id, sha256(token), expiresAt);
      await audit.record({ projectId, actor, action: 'invitation.resend', target: invitation.email });
      return { id: invitation.id, email: invitation.email, role: invitation.role, expiresAt };
    },

    async revoke(actor: Actor, projectId: string, invitationId: string): Promise<void> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      const invitation = isId(invitationId) ? await store.findInvitation(projectId, invitationId) : null;
      if (!invitation || !(await store.deleteInvitation(projectId, invitation.id)))
        throw invitationNotFound();
      await audit.record({ projectId, actor, action: 'invitation.revoke', target: invitation.email });
    },

    /**
     * The signed-in user (verified: only verified accounts have sessions) takes an invitation sent to
     * their own address; the link then stops working. Answers the project as they now see it.
     */
    async accept(actor: Actor, token: string): Promise<Project> {
      const invitation = await store.findInvitationByTokenHash(sha256(token));
      const now = clock().toISOString();
      if (!invitation || invitation.expires_at <= now) throw invalidInvitation();
      if (invitation.email !== actor.email.toLowerCase()) {
        throw forbidden(
          `This invitation was sent to another email address; log in as that address to accept it.`,
        );
      }
      if ((await store.countMembers(invitation.project_id)) >= MAX_MEMBERS_PER_PROJECT) {
        throw badRequest(`This project already has ${MAX_MEMBERS_PER_PROJECT} members, its most.`);
      }
      const outcome = await store.accept({ invitation, userId: actor.id, now });
      if (outcome === 'gone') throw invalidInvitation();
      if (outcome === 'already-member') {
        throw new AppError(409, 'MEMBER_ALREADY_EXISTS', 'You are already a member of this project.');
      }
      await audit.record({
        projectId: invitation.project_id,
        actor,
        action: 'invitation.accept',
        target: actor.email,
        details: { role: invitation.role },
      });
      return projects.getProjectFor(actor.id, invitation.project_id);
    },

    async changeRole(actor: Actor, projectId: string, userId: string, role: GrantableRole): Promise<Member> {
      const project = await projects.getProjectFor(actor.id, projectId, 'manage');
      const member = await targetMember(projectId, userId);
      if (member.role === 'owner') {
        if (project.role !== 'owner') throw forbidden("An admin cannot change the owner's role.");
        throw badRequest("The owner's role changes only by transferring the project to an admin.");
      }
      if (member.role !== role) {
        await store.setRole(projectId, member.userId, role);
        await audit.record({
          projectId,
          actor,
          action: 'member.role',
          target: member.email,
          details: { from: member.role, to: role },
        });
      }
      return { ...member, role };
    },

    /** Removing someone (admins and the owner), or leaving (any member but the owner). */
    async remove(actor: Actor, projectId: string, userId: string): Promise<void> {
      const isLeaving = userId === actor.id;
      const project = await projects.getProjectFor(actor.id, projectId, isLeaving ? 'read' : 'manage');
      const member = await targetMember(projectId, userId);
      if (member.role === 'owner') {
        if (project.role !== 'owner') throw forbidden('An admin cannot remove the owner.');
        throw badRequest('The owner cannot leave; transfer the project to an admin first, or delete it.');
      }
      if (!(await store.removeMember(projectId, member.userId))) throw memberNotFound();
      onMemberRemoved(member.userId, projectId);
      await audit.record({
        projectId,
        actor,
        action: isLeaving ? 'member.leave' : 'member.remove',
        target: member.email,
        details: { role: member.role },
      });
    },

    /** To an admin of the project; the owner becomes an admin. */
    async transfer(actor: Actor, projectId: string, userId: string): Promise<Project> {
      await projects.getProjectFor(actor.id, projectId, 'own');
      if (userId === actor.id) throw badRequest('You already own this project.');
      const member = await targetMember(projectId, userId);
      if (member.role !== 'admin') {
        throw badRequest('Ownership goes only to an admin of the project: make them an admin first.', [
          { path: 'userId', message: 'not an admin of this project' },
        ]);
      }
      if (!(await store.transfer(projectId, actor.id, member.userId))) {
        throw new AppError(
          409,
          'INVALID_REQUEST',
          'The roles changed meanwhile; reload the members and try again.',
        );
      }
      await audit.record({ projectId, actor, action: 'ownership.transfer', target: member.email });
      return projects.getProjectFor(actor.id, projectId);
    },
  };
}
