import type { Session } from '@polyflow/contracts/auth';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../lib/clock.ts';
import type { AuthStore, UserRow } from './store.ts';

export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;
const ISSUER = 'polyflow';
const AUDIENCE = 'polyflow-console';

/** The signed-in person, as every guarded route and resolver sees them. */
export type AuthUser = { id: string; email: string };

export type SessionService = {
  issue(user: Pick<UserRow, 'id' | 'email' | 'session_version'>): Promise<Session>;
  /** The user behind a bearer token, or null when it is missing, forged, expired or revoked. */
  verify(token: string): Promise<AuthUser | null>;
};

/** HS256 JWTs. The `sv` claim ties a session to the password it was opened with. */
export function createSessionService({
  secret,
  clock,
  store,
}: {
  secret: string;
  clock: Clock;
  store: Pick<AuthStore, 'findUserById'>;
}): SessionService {
  const key = new TextEncoder().encode(secret);

  return {
    async issue(user) {
      const issuedAt = Math.floor(clock().getTime() / 1000);
      const expiresAt = issuedAt + SESSION_TTL_SECONDS;
      const token = await new SignJWT({ email: user.email, sv: user.session_version })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(key);
      return { token, email: user.email, validUntil: new Date(expiresAt * 1000).toISOString() };
    },

    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: clock(),
          requiredClaims: ['sub', 'exp', 'iat'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.sv !== 'number') return null;
        const user = await store.findUserById(payload.sub);
        // A password reset since the token was issued, or a deleted account, ends the session.
        if (!user || user.session_version !== payload.sv) return null;
        return { id: user.id, email: user.email };
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return null;
        throw error;
      }
    },
  };
}
