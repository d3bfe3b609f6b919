import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

type Options = {
  isHttps: boolean;
  /** Routes called by dapps with an API key (no cookie, no console): `POST /api/v1/events`. */
  exemptPaths: ReadonlySet<string>;
};

function pathOf(request: FastifyRequest): string {
  const url = request.raw.url ?? '/';
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Double-submit cookie: a readable XSRF-TOKEN cookie is handed out, and a console mutation must echo it
 * in X-XSRF-TOKEN. Another site can make the browser send the cookie but cannot read it to set the header.
 * Runs in onRequest, before the body is parsed, so a forged request costs nothing.
 */
export function installXsrfProtection(app: FastifyInstance, { isHttps, exemptPaths }: Options): void {
  const check = (request: FastifyRequest, reply: FastifyReply, path: string): void => {
    const cookie = request.cookies[XSRF_COOKIE];
    if (!cookie) {
      reply.setCookie(XSRF_COOKIE, randomBytes(24).toString('base64url'), {
        path: '/',
        sameSite: 'strict',
        secure: isHttps,
        httpOnly: false,
      });
    }
    if (SAFE_METHODS.has(request.method) || !path.startsWith('/api/v1/')) return;
    const header = request.headers[XSRF_HEADER];
    if (!cookie || typeof header !== 'string' || !sameToken(cookie, header)) {
      throw new AppError(
        403,
        'ACCESS_FORBIDDEN',
        'Missing or mismatched XSRF token: send the XSRF-TOKEN cookie value in the X-XSRF-TOKEN header.',
      );
    }
  };
  app.addHook('onRequest', (request, reply, done) => {
    // The matched route pattern when there is one, so encoded or oddly spelled URLs cannot dodge the check.
    const path = request.routeOptions.url ?? pathOf(request);
    // Dapps calling ingestion cross-site get no console cookie (and no promise per request).
    if (exemptPaths.has(path)) {
      done();
      return;
    }
    try {
      check(request, reply, path);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
