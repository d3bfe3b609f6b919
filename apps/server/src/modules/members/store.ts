import type { GrantableRole, Invitation, Member, Role } from '@polyflow/contracts/members';
import { type AccountDb, inTransaction } from '../../db/database.ts';
import type { ProjectInvitationsTable } from '../../db/schema.ts';

export type MemberStore = ReturnType<typeof createMemberStore>;

const ROLE_ORDER: Record<Role, number> = { owner: 0, admin: 1, viewer: 2 };

const toInvitation = (row: ProjectInvitationsTable): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/** What accepting found: the invitation was taken (single use) and the user is now a member. */
export type AcceptOutcome = 'accepted' | 'gone' | 'already-member';

/** All SQL about a project's members and invitations. */
export function createMemberStore(db: AccountDb) {
  return {
    /** The owner first, then admins, then viewers, each by when they joined. */
    async listMembers(projectId: string): Promise<Member[]> {
      const rows = await db
        .selectFrom('project_members')
        .innerJoin('users', 'users.id', 'project_members.user_id')
        .select([
          'project_members.user_id',
          'users.email',
          'project_members.role',
          'project_members.joined_at',
        ])
        .where('project_members.project_id', '=', projectId)
        .orderBy('project_members.joined_at')
        .orderBy('project_members.user_id')
        .execute();
      return rows
        .map((row) => ({ userId: row.user_id, email: row.email, role: row.role, joinedAt: row.joined_at }))
        .sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role]);
    },

    async findMember(projectId: string, userId: string): Promise<Member | null> {
      const row = await db
        .selectFrom('project_members')
        .innerJoin('users', 'users.id', 'project_members.user_id')
        .select([
          'project_members.user_id',
          'users.email',
          'project_members.role',
          'project_members.joined_at',
        ])
        .where('project_members.project_id', '=', projectId)
        .where('project_members.user_id', '=', userId)
        .executeTakeFirst();
      return row ? { userId: row.user_id, email: row.email, role: row.role, joinedAt: row.joined_at } : null;
    },

    async isMemberEmail(projectId: string, email: string): Promise<boolean> {
      const row = await db
        .selectFrom('project_members')
        .innerJoin('users', 'users.id', 'project_members.user_id')
        .select('project_members.user_id')
        .where('project_members.project_id', '=', projectId)
        .where('users.email', '=', email)
        .executeTakeFirst();
      return row !== undefined;
    },

    async countMembers(projectId: string): Promise<number> {
      const row = await db
        .selectFrom('project_members')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Invitations not accepted, revoked or expired at `now`, oldest first. */
    async listPending(projectId: string, now: string): Promise<Invitation[]> {
      const rows = await db
        .selectFrom('project_invitations')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('expires_at', '>', now)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toInvitation);
    },

    async findInvitation(projectId: string, invitationId: string): Promise<ProjectInvitationsTable | null> {
      const row = await db
        .selectFrom('project_invitations')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', invitationId)
        .executeTakeFirst();
      return row ?? null;
    },

    async findInvitationByEmail(projectId: string, email: string): Promise<ProjectInvitationsTable | null> {
      const row = await db
        .selectFrom('project_invitations')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('email', '=', email)
        .executeTakeFirst();
      return row ?? null;
    },

    async findInvitationByTokenHash(tokenHash: string): Promise<ProjectInvitationsTable | null> {
      const row = await db
        .selectFrom('project_invitations')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row ?? null;
    },

    /** A new invitation; an expired one to the same address is replaced in the same transaction. */
    async insertInvitation(row: ProjectInvitationsTable): Promise<void> {
      await inTransaction(db, async (trx) => {
        await trx
          .deleteFrom('project_invitations')
          .where('project_id', '=', row.project_id)
          .where('email', '=', row.email)
          .where('expires_at', '<=', row.created_at)
          .execute();
        await trx.insertInto('project_invitations').values(row).execute();
      });
    },

    /** A resend: a new link (the old one stops working) and a new expiry. */
    async renewInvitation(invitationId: string, tokenHash: string, expiresAt: string): Promise<void> {
      await db
        .updateTable('project_invitations')
        .set({ token_hash: tokenHash, expires_at: expiresAt })
        .where('id', '=', invitationId)
        .execute();
    },

    /** Whether a row was removed. */
    async deleteInvitation(projectId: string, invitationId: string): Promise<boolean> {
      const result = await db
        .deleteFrom('project_invitations')
        .where('project_id', '=', projectId)
        .where('id', '=', invitationId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /**
     * Takes the invitation (by its token hash, still valid at `now`) and adds the member, in one
     * transaction: a second accept of the same link finds nothing.
     */
    async accept(input: {
      invitation: ProjectInvitationsTable;
      userId: string;
      now: string;
    }): Promise<AcceptOutcome> {
      const { invitation, userId, now } = input;
      return inTransaction(db, async (trx) => {
        const taken = await trx
          .deleteFrom('project_invitations')
          .where('id', '=', invitation.id)
          .where('token_hash', '=', invitation.token_hash)
          .where('expires_at', '>', now)
          .executeTakeFirst();
        if (taken.numDeletedRows === 0n) return 'gone';
        const existing = await trx
          .selectFrom('project_members')
          .select('user_id')
          .where('project_id', '=', invitation.project_id)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (existing) return 'already-member';
        await trx
          .insertInto('project_members')
          .values({
            project_id: invitation.project_id,
            user_id: userId,
            role: invitation.role,
            joined_at: now,
          })
          .execute();
        return 'accepted';
      });
    },

    async setRole(projectId: string, userId: string, role: GrantableRole): Promise<void> {
      await db
        .updateTable('project_members')
        .set({ role })
        .where('project_id', '=', projectId)
        .where('user_id', '=', userId)
        .where('role', '!=', 'owner')
        .execute();
    },

    /** Whether a row was removed; the owner's row is never removed here. */
    async removeMember(projectId: string, userId: string): Promise<boolean> {
      const result = await db
        .deleteFrom('project_members')
        .where('project_id', '=', projectId)
        .where('user_id', '=', userId)
        .where('role', '!=', 'owner')
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /**
     * The admin `toUserId` becomes the owner and the owner `fromUserId` an admin, with projects.owner_id,
     * in one transaction; false (nothing changed) when either is no longer what it was.
     */
    async transfer(projectId: string, fromUserId: string, toUserId: string): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const promoted = await trx
          .updateTable('project_members')
          .set({ role: 'owner' })
          .where('project_id', '=', projectId)
          .where('user_id', '=', toUserId)
          .where('role', '=', 'admin')
          .executeTakeFirst();
        const demoted = await trx
          .updateTable('project_members')
          .set({ role: 'admin' })
          .where('project_id', '=', projectId)
          .where('user_id', '=', fromUserId)
          .where('role', '=', 'owner')
          .executeTakeFirst();
        if (promoted.numUpdatedRows !== 1n || demoted.numUpdatedRows !== 1n) {
          throw new TransferRaced();
        }
        await trx
          .updateTable('projects')
          .set({ owner_id: toUserId })
          .where('id', '=', projectId)
          .where('owner_id', '=', fromUserId)
          .execute();
        return true;
      }).catch((error: unknown) => {
        if (error instanceof TransferRaced) return false;
        throw error;
      });
    },
  };
}

/** Rolls the transfer's transaction back when a role changed under it. */
class TransferRaced extends Error {}
