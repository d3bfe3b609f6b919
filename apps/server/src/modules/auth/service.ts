import {
  type Credentials,
  type EmailCode,
  type Session,
  SHORT_CODE_ALPHABET,
  SHORT_CODE_LENGTH,
  SHORT_CODE_MAX_ATTEMPTS,
  type VerifyEmail,
} from '@polyflow/contracts/auth';
import { isUniqueViolation } from '../../db/database.ts';
import type { EmailTokenPurpose } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newEmailToken, newId, newShortCode, sha256 } from '../../lib/ids.ts';
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
const invalidCode = () =>
  new AppError(
    400,
    'USER_SECURE_CODE_INVALID',
    `This code is wrong, already used or expired. A code stops working after ${SHORT_CODE_MAX_ATTEMPTS} wrong tries: use the link in the email or send a new one.`,
  );
const badCredentials = () => new AppError(401, 'BAD_AUTHENTICATION', 'Wrong email or password.');

/**
 * Accounts. Answers that concern an email address (register, resend, forgot-password) are the same
 * whether or not it has an account; mail is only stored in the outbox on the way (the mail service
 * sends it in the background), so SMTP's timing says nothing either.
 */
export function createAuthService({ store, sessions, passwords, mail, clock, publicUrl }: Deps) {
  /** The link's token, and for verification a short code on the same row (same expiry, same rules). */
  async function issueEmailToken(userId: string, purpose: EmailTokenPurpose, shortCode: string | null) {
    const token = newEmailToken();
    const now = clock();
    await store.insertToken({
      id: newId(),
      userId,
      purpose,
      tokenHash: sha256(token),
      codeHash: shortCode === null ? null : sha256(shortCode),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + TOKEN_TTL_MS[purpose]).toISOString(),
    });
    return token;
  }

  async function sendVerification(userId: string, email: string): Promise<void> {
    const shortCode = newShortCode(SHORT_CODE_ALPHABET, SHORT_CODE_LENGTH);
    const token = await issueEmailToken(userId, 'verify', shortCode);
    await mail.enqueue(verificationEmail(email, publicUrl, token, shortCode));
  }

  /** The user id behind a right short code; unknown emails answer exactly like wrong codes. */
  async function consumeVerificationCode({ email, code }: EmailCode, now: string): Promise<string> {
    const user = await store.findUserByEmail(email);
    const isRight =
      user !== undefined &&
      (await store.consumeShortCode(user.id, sha256(code), 'verify', now, SHORT_CODE_MAX_ATTEMPTS));
    if (!user || !isRight) throw invalidCode();
    return user.id;
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

    /** By the link's token, or by the account's email and the short code. */
    async verifyEmail(input: VerifyEmail): Promise<Session> {
      const now = clock().toISOString();
      let userId: string | null;
      if ('token' in input) userId = await store.consumeToken(sha256(input.token), 'verify', now);
      else userId = await consumeVerificationCode(input, now);
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
      // No short code here: 40 bits guessed offline from a leaked hash would let anyone reset the password.
      const token = await issueEmailToken(user.id, 'reset', null);
      await mail.enqueue(passwordResetEmail(email, publicUrl, token));
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
      // Every session of the account ended with the old password (session_version): streams close now.
      sessions.announceEnded({ userId });
      // The reset link proved the person reads this mailbox, which is what verification asks.
      await store.markVerified(userId, now);
    },
  };
}
