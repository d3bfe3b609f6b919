import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';

/** JSON is UTF-8 (RFC 8259); a body labelled otherwise would be read as something it is not. */
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;
function isOtherCharset(contentType: string | undefined): boolean {
  const charset = CHARSET.exec(contentType ?? '')?.[1]?.toLowerCase();
  return charset !== undefined && charset !== 'utf-8' && charset !== 'utf8';
}

/**
 * Fastify's JSON parser (which refuses `__proto__` and `constructor.prototype` keys), except that an
 * empty body is "no body": clients that always send `content-type: application/json` can call the
 * body-less routes (`POST /projects/:id/api-key`), and routes that need a body still say which field is missing.
 */
export function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (isOtherCharset(request.headers['content-type'])) {
      done(new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send JSON as UTF-8 (charset=utf-8 or no charset).'));
      return;
    }
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
