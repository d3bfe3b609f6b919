import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../errors.ts';
import { READ_TOKEN_PREFIX } from '../../lib/ids.ts';
import type { Reader } from '../../reading/reader.ts';
import { bearerToken, requireUser } from '../auth/guard.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Verifies read tokens; decorated in app.ts so that GraphQL and the export can use `requireReader`. */
    readTokens: { verify(token: string): Promise<Reader | null> };
  }
}

/**
 * Who reads: a read token (`Authorization: Bearer pfr_…`, its one project) or a console session (the
 * projects its user owns). 401 BAD_AUTHENTICATION for an unknown or revoked token, or no session.
 */
export async function requireReader(request: FastifyRequest): Promise<Reader> {
  const token = bearerToken(request);
  if (token?.startsWith(READ_TOKEN_PREFIX)) {
    const reader = await request.server.readTokens.verify(token);
    if (!reader) throw unauthorized('Unknown or revoked read token.');
    return reader;
  }
  const user = await requireUser(request);
  return { userId: user.id, onlyProjectId: null };
}
