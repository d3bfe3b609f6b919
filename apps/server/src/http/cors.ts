import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * CORS for the two routes dapp pages call cross-origin (`POST /api/v1/events`, the 1.0.25 SDK's
 * `POST /api/graphql`). By hand rather than with @fastify/cors: whether an origin may read the answer
 * depends on the project's domain whitelist, found from the API key inside the request, which a CORS
 * plugin deciding in `onRequest` cannot see. Console routes get no CORS headers at all (same-origin only).
 */

/**
 * Answers a preflight for any origin: it carries no key, so nothing can be checked yet; the POST itself is
 * refused unless the key's whitelist holds its Origin. Never credentials, never `Authorization`.
 */
export function answerPreflight(
  request: FastifyRequest,
  reply: FastifyReply,
  { allowHeaders }: { allowHeaders: string },
): FastifyReply {
  reply.header('vary', 'Origin');
  const origin = request.headers.origin;
  if (origin) {
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-methods', 'POST, OPTIONS');
    reply.header('access-control-allow-headers', allowHeaders);
    reply.header('access-control-max-age', '600');
  }
  return reply.status(204).send();
}

/** After the key and the Origin passed: that origin may read the answer, errors included (retry decisions). */
export function allowWhitelistedOrigin(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('access-control-allow-origin', request.headers.origin);
}
