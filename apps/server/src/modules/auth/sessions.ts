import type { Session } from '@polyflow/contracts/auth';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { AuthStore, UserRow } from './store.ts';

export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Nodes' clocks may differ by this much; a token issued further in the future is refused. */
const MAX_CLOCK_SKEW_SECONDS = 60;
const ISSUER = 'polyflow';
const AUDIENCE = 'polyflow-console';

/** The signed-in person, as every guarded route and resolver sees them. */
export type AuthUser = { id: string; email: string };

export type SessionService = {
  issue(user: Pick<UserRow, 'id' | 'email' | 'session_version'>): Promise<Session>;
  /** The user behind a bearer token, or null when it is missing, forged, expired, ended or from the future. */
  verify(token: string): Promise<AuthUser | null>;
  /** Ends the token's session on the server (Log Out); nothing happens for a token that is not valid. */
  end(token: string): Promise<void>;
  /** The session a valid token names and when it expires (epoch ms), without asking the store. */
  describe(token: string): Promise<{ sessionId: string; userId: string; expiresAtMs: number } | null>;
  /**
   * Tells the listeners that sessions ended on this node: one (`sessionId`, Log Out) or all of a user's
   * (a password reset). What holds a session open beyond a request (the live streams) listens.
   */
  announceEnded(ended: EndedSessions): void;
  onEnded(listener: (ended: EndedSessions) => void): void;
};

/** Sessions that ended: one of the user's, or every one of them. */
export type EndedSessions = { userId: string; sessionId?: string };

type Claims = { sessionId: string; userId: string; sessionVersion: number; expiresAtMs: number };

/**
 * HS256 JWTs naming a server-side session (`sid`, the `sessions` table): each request looks the session
 * up (one indexed query, as the user look-up before it), so Log Out and a password reset end sessions at
 * once rather than when the JWT expires. The `sv` claim still ties a session to the password it was opened with.
 */
export function createSessionService({
  secret,
  clock,
  store,
}: {
  secret: string;
  clock: Clock;
  store: Pick<AuthStore, 'insertSession' | 'findOpenSession' | 'endSession'>;
}): SessionService {
  const key = new TextEncoder().encode(secret);
  const listeners: ((ended: EndedSessions) => void)[] = [];
  const announceEnded = (ended: EndedSessions) => {
    for (const listener of listeners) listener(ended);
  };

  async function claimsOf(token: string): Promise<Claims | null> {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: clock(),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      const now = Math.floor(clock().getTime() / 1000);
      if (typeof payload.iat !== 'number' || payload.iat > now + MAX_CLOCK_SKEW_SECONDS) return null;
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.sid !== 'string' ||
        typeof payload.sv !== 'number' ||
        typeof payload.exp !== 'number'
      ) {
        return null;
      }
      return {
        sessionId: payload.sid,
        userId: payload.sub,
        sessionVersion: payload.sv,
        expiresAtMs: payload.exp * 1000,
      };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }

  return {
    async issue(user) {
      const now = clock();
      const issuedAt = Math.floor(now.getTime() / 1000);
      const expiresAt = issuedAt + SESSION_TTL_SECONDS;
      const sessionId = newId();
      await store.insertSession({
        id: sessionId,
        userId: user.id,
        createdAt: now.toISOString(),
        expiresAt: new Date(expiresAt * 1000).toISOString(),
      });
      const token = await new SignJWT({ email: user.email, sid: sessionId, sv: user.session_version })
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
      const claims = await claimsOf(token);
      if (!claims) return null;
      const user = await store.findOpenSession(claims.sessionId, claims.userId);
      // Ended by Log Out or a password reset, or the account is gone.
      if (!user || user.session_version !== claims.sessionVersion) return null;
      return { id: user.id, email: user.email };
    },

    async end(token) {
      const claims = await claimsOf(token);
      if (!claims) return;
      await store.endSession(claims.sessionId, clock().toISOString());
      announceEnded({ userId: claims.userId, sessionId: claims.sessionId });
    },

    async describe(token) {
      const claims = await claimsOf(token);
      return (
        claims && { sessionId: claims.sessionId, userId: claims.userId, expiresAtMs: claims.expiresAtMs }
      );
    },

    announceEnded,

    onEnded(listener) {
      listeners.push(listener);
    },
  };
}
