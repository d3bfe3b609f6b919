import type { FastifyInstance } from 'fastify';

/**
 * Fastify's JSON parser (which refuses `__proto__` and `constructor.prototype` keys), except that an
 * empty body is "no body": clients that always send `content-type: application/json` can call the
 * body-less routes (`POST /projects/:id/api-key`), and routes that need a body still say which field is missing.
 */
export function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
