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

/** The token of an `Authorization: Bearer …` header, if the request has one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  return BEARER.exec(request.headers.authorization ?? '')?.[1];
}

/** The signed-in user of this request, or a 401 BAD_AUTHENTICATION (missing, forged, expired, revoked). */
export async function requireUser(request: FastifyRequest): Promise<AuthUser> {
  let pending = resolved.get(request);
  if (!pending) {
    const token = bearerToken(request);
    pending = token ? request.server.sessions.verify(token) : Promise.resolve(null);
    resolved.set(request, pending);
  }
  const user = await pending;
  if (!user) throw unauthorized();
  return user;
}
