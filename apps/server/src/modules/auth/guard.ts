import type { FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../../errors.ts';
import type { Actor } from '../../lib/access.ts';
import { READ_TOKEN_PREFIX, WRITE_TOKEN_PREFIX } from '../../lib/ids.ts';
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

/**
 * The signed-in user of this request, or a 401 BAD_AUTHENTICATION (missing, forged, expired, revoked);
 * a read token gets a 403 ACCESS_FORBIDDEN.
 */
export async function requireUser(request: FastifyRequest): Promise<AuthUser> {
  let pending = resolved.get(request);
  if (!pending) {
    const token = bearerToken(request);
    // Read tokens (modules/read-tokens) read dashboards and exports; everything else wants a session.
    if (token?.startsWith(READ_TOKEN_PREFIX)) {
      throw forbidden(
        "A read token only reads a project's analytics (GraphQL queries) and exports its events; this needs a console session.",
      );
    }
    // Write tokens (modules/sourcemaps) upload source maps and do nothing else.
    if (token?.startsWith(WRITE_TOKEN_PREFIX)) {
      throw forbidden('A write token only uploads source maps; this needs a console session.');
    }
    pending = token ? request.server.sessions.verify(token) : Promise.resolve(null);
    resolved.set(request, pending);
  }
  const user = await pending;
  if (!user) throw unauthorized();
  return user;
}

/** The signed-in user and the client's address: who changes something, as the audit log records it. */
export async function requireActor(request: FastifyRequest): Promise<Actor> {
  const user = await requireUser(request);
  return { id: user.id, email: user.email, ip: request.ip };
}
