import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../errors.ts';
import type { AuthUser, SessionService } from './sessions.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Verifies console sessions; decorated in app.ts so every module's routes can use `requireUser`. */
    sessions: SessionService;
  }
}

const BEARER = /^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/;
const resolved = new WeakMap<FastifyRequest, Promise<AuthUser | null>>();

/** The signed-in user of this request, or a 401 BAD_AUTHENTICATION (missing, forged, expired, revoked). */
export async function requireUser(request: FastifyRequest): Promise<AuthUser> {
  let pending = resolved.get(request);
  if (!pending) {
    const match = BEARER.exec(request.headers.authorization ?? '');
    pending = match?.[1] ? request.server.sessions.verify(match[1]) : Promise.resolve(null);
    resolved.set(request, pending);
  }
  const user = await pending;
  if (!user) throw unauthorized();
  return user;
}
