import type { Credentials, Session } from '@polyflow/contracts/auth';
import { isUniqueViolation } from '../../db/database.ts';
import type { EmailTokenPurpose } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newEmailToken, newId, sha256 } from '../../lib/ids.ts';
import type { MailService } from '../mail/service.ts';
import { alreadyRegisteredEmail, passwordResetEmail, verificationEmail } from './emails.ts';
import type { PasswordHasher } from './passwords.ts';
import type { SessionService } from './sessions.ts';
import type { AuthStore } from './store.ts';

const TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = {
  verify: 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
};

export type AuthService = ReturnType<typeof createAuthService>;

type Deps = {
  store: AuthStore;
  sessions: SessionService;
  passwords: PasswordHasher;
  mail: MailService;
  clock: Clock;
  publicUrl: string;
};

const invalidToken = () =>
  new AppError(400, 'USER_SECURE_TOKEN_INVALID', 'This link or code is invalid, already used or expired.');
const badCredentials = () => new AppError(401, 'BAD_AUTHENTICATION', 'Wrong email or password.');

/**
 * Accounts. Answers that concern an email address (register, resend, forgot-password) are the same
 * whether or not it has an account; mail is only stored in the outbox on the way (the mail service
 * sends it in the background), so SMTP's timing says nothing either.
 */
export function createAuthService({ store, sessions, passwords, mail, clock, publicUrl }: Deps) {
  async function issueEmailToken(userId: string, purpose: EmailTokenPurpose): Promise<string> {
    const code = newEmailToken();
    const now = clock();
    await store.insertToken({
      id: newId(),
      userId,
      purpose,
      tokenHash: sha256(code),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + TOKEN_TTL_MS[purpose]).toISOString(),
    });
    return code;
  }

  async function sendVerification(userId: string, email: string): Promise<void> {
    const code = await issueEmailToken(userId, 'verify');
    await mail.enqueue(verificationEmail(email, publicUrl, code));
  }

  return {
    async register({ email, password }: Credentials): Promise<void> {
      // Hash first, in every branch, so an existing account does not answer faster.
      const passwordHash = await passwords.hash(password);
      const existing = await store.findUserByEmail(email);
      if (existing) {
        // The stored password is kept: re-registering must not let someone else set it before verification.
        if (existing.verified_at) await mail.enqueue(alreadyRegisteredEmail(email, publicUrl));
        else await sendVerification(existing.id, email);
        return;
      }
      const now = clock().toISOString();
      const user = {
        id: newId(),
        email,
        password_hash: passwordHash,
        verified_at: null,
        password_changed_at: now,
        session_version: 0,
        created_at: now,
      };
      try {
        await store.insertUser(user);
      } catch (error) {
        // Two registrations racing for one email: the loser answers like any other duplicate.
        if (isUniqueViolation(error)) return;
        throw error;
      }
      await sendVerification(user.id, email);
    },

    async verifyEmail(code: string): Promise<Session> {
      const now = clock().toISOString();
      const userId = await store.consumeToken(sha256(code), 'verify', now);
      if (!userId) throw invalidToken();
      await store.markVerified(userId, now);
      const user = await store.findUserById(userId);
      if (!user) throw invalidToken();
      return sessions.issue(user);
    },

    async resendVerification(email: string): Promise<void> {
      const user = await store.findUserByEmail(email);
      if (user && !user.verified_at) await sendVerification(user.id, email);
    },

    async login({ email, password }: Credentials): Promise<Session> {
      const user = await store.findUserByEmail(email);
      const isValid = await passwords.verify(user?.password_hash, password);
      if (!user || !isValid) throw badCredentials();
      if (!user.verified_at) {
        throw new AppError(
          403,
          'USER_NOT_YET_VERIFIED',
          'Your email address has not been verified yet. Open the link we emailed you.',
        );
      }
      return sessions.issue(user);
    },

    async forgotPassword(email: string): Promise<void> {
      const user = await store.findUserByEmail(email);
      if (!user) return;
      const code = await issueEmailToken(user.id, 'reset');
      await mail.enqueue(passwordResetEmail(email, publicUrl, code));
    },

    /** Log Out: the session ends on the server at once, whoever still holds its token. */
    logout(token: string): Promise<void> {
      return sessions.end(token);
    },

    async resetPassword(code: string, newPassword: string): Promise<void> {
      const passwordHash = await passwords.hash(newPassword);
      const now = clock().toISOString();
      const userId = await store.consumeToken(sha256(code), 'reset', now);
      if (!userId) throw invalidToken();
      await store.changePassword(userId, passwordHash, now);
      // The reset link proved the person reads this mailbox, which is what verification asks.
      await store.markVerified(userId, now);
    },
  };
}
