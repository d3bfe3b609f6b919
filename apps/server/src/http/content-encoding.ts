import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

const hasBody = (request: FastifyRequest): boolean => {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
};

/** `identity` (in any case, even listed several times) is the only coding: the body as it is. */
const isIdentity = (contentEncoding: string): boolean =>
  contentEncoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .every((coding) => coding === '' || coding === 'identity');

/**
 * No route decodes a request body's Content-Encoding: a gzip body would be read as bytes that are not
 * JSON, and a plain body labelled gzip would be taken as plain. Either way the label and the body disagree
 * about what was sent, so a coded body is refused before any route runs (ingestion, the 1.0.25 SDK's
 * GraphQL mutations, uploads), with `Accept-Encoding: identity` as RFC 9110 §15.5.16 asks. The SDK and the
 * console never compress what they send.
 */
export function installContentEncodingPolicy(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const contentEncoding = request.headers['content-encoding'];
    if (contentEncoding === undefined || isIdentity(contentEncoding) || !hasBody(request)) {
      done();
      return;
    }
    reply.header('accept-encoding', 'identity');
    done(
      new AppError(
        415,
        'UNSUPPORTED_CONTENT_ENCODING',
        'Send the body uncompressed: the only Content-Encoding accepted is identity.',
      ),
    );
  });
}
