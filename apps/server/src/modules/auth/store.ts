import type { AccountDb } from '../../db/database.ts';
import type { EmailTokenPurpose, UsersTable } from '../../db/schema.ts';

export type UserRow = UsersTable;

export type AuthStore = ReturnType<typeof createAuthStore>;

/** All SQL about users and their emailed tokens. */
export function createAuthStore(db: AccountDb) {
  return {
    findUserByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    },

    findUserById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async insertUser(user: UserRow): Promise<void> {
      await db.insertInto('users').values(user).execute();
    },

    async insertToken(token: {
      id: string;
      userId: string;
      purpose: EmailTokenPurpose;
      tokenHash: string;
      expiresAt: string;
      createdAt: string;
    }): Promise<void> {
      await db
        .insertInto('email_tokens')
        .values({
          id: token.id,
          user_id: token.userId,
          purpose: token.purpose,
          token_hash: token.tokenHash,
          expires_at: token.expiresAt,
          used_at: null,
          created_at: token.createdAt,
        })
        .execute();
    },

    /**
     * Marks an unused, unexpired token as used and returns its user id, atomically: two concurrent
     * requests with the same token cannot both succeed. A verification spends every other outstanding
     * verification token of the user with it (older links in the mailbox must not open sessions later).
     */
    async consumeToken(tokenHash: string, purpose: EmailTokenPurpose, now: string): Promise<string | null> {
      return db.transaction().execute(async (trx) => {
        const token = await trx
          .selectFrom('email_tokens')
          .select(['id', 'user_id'])
          .where('token_hash', '=', tokenHash)
          .where('purpose', '=', purpose)
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .executeTakeFirst();
        if (!token) return null;
        const result = await trx
          .updateTable('email_tokens')
          .set({ used_at: now })
          .where('id', '=', token.id)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (result.numUpdatedRows !== 1n) return null;
        if (purpose === 'verify') {
          await trx
            .updateTable('email_tokens')
            .set({ used_at: now })
            .where('user_id', '=', token.user_id)
            .where('purpose', '=', 'verify')
            .where('used_at', 'is', null)
            .execute();
        }
        return token.user_id;
      });
    },

    async markVerified(userId: string, now: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ verified_at: now })
        .where('id', '=', userId)
        .where('verified_at', 'is', null)
        .execute();
    },

    /** New password; every outstanding token (reset and verification) and every session end with it. */
    async changePassword(userId: string, passwordHash: string, now: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set((eb) => ({
            password_hash: passwordHash,
            password_changed_at: now,
            session_version: eb('session_version', '+', 1),
          }))
          .where('id', '=', userId)
          .execute();
        await trx
          .updateTable('email_tokens')
          .set({ used_at: now })
          .where('user_id', '=', userId)
          .where('used_at', 'is', null)
          .execute();
        await trx
          .updateTable('sessions')
          .set({ ended_at: now })
          .where('user_id', '=', userId)
          .where('ended_at', 'is', null)
          .execute();
      });
    },

    /** A new session; the user's sessions that expired before `now` are deleted on the way. */
    async insertSession(session: { id: string; userId: string; createdAt: string; expiresAt: string }) {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('sessions')
          .where('user_id', '=', session.userId)
          .where('expires_at', '<', session.createdAt)
          .execute();
        await trx
          .insertInto('sessions')
          .values({
            id: session.id,
            user_id: session.userId,
            created_at: session.createdAt,
            expires_at: session.expiresAt,
            ended_at: null,
          })
          .execute();
      });
    },

    /** The session's user if the session is open (not ended): one indexed look-up per request. */
    findOpenSession(sessionId: string, userId: string) {
      return db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['users.id', 'users.email', 'users.session_version'])
        .where('sessions.id', '=', sessionId)
        .where('sessions.user_id', '=', userId)
        .where('sessions.ended_at', 'is', null)
        .executeTakeFirst();
    },

    async endSession(sessionId: string, now: string): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ ended_at: now })
        .where('id', '=', sessionId)
        .where('ended_at', 'is', null)
        .execute();
    },
  };
}
