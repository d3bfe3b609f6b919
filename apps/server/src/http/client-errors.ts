import { maxHeaderSize, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '@polyflow/contracts/errors';
import type { ConnectionError, FastifyInstance } from 'fastify';

type Refusal = { status: number; errorCode: ErrorCode; message: string };

/**
 * What Node's HTTP parser refused, before any route (or Fastify's error handler) saw a request. No request
 * timeout is set (Fastify's `requestTimeout` is 0), so Node never reports ERR_HTTP_REQUEST_TIMEOUT here.
 */
function refusalOf(code: string): Refusal {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        errorCode: 'HEADERS_TOO_LARGE',
        message: `The request line and headers are over ${maxHeaderSize / 1024} KB together (a long query string, header or cookie).`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        errorCode: 'PAYLOAD_TOO_LARGE',
        message: "The body's chunk extensions are too large.",
      };
    default:
      return {
        status: 400,
        errorCode: 'INVALID_REQUEST',
        message:
          'The request is not valid HTTP/1.x: a malformed request line or header, an unsupported HTTP version, ' +
          'or a bad Content-Length or Transfer-Encoding.',
      };
  }
}

/**
 * Fastify's `clientErrorHandler`: a request Node's parser refuses (headers over the size limit, a header
 * line without a colon, a bad Content-Length, HTTP/9.9) is answered `{errorCode, message}` like every
 * other refusal, rather than Fastify's `{error, message, statusCode}`. The connection is closed after it,
 * as Node and Fastify do: the parser cannot tell where the next request would start.
 */
export function answerClientError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  // A reset connection is gone already: nothing to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, errorCode, message } = refusalOf(error.code);
  this.log.debug({ err: error }, 'client error');
  // As Node's own handler: only when no answer of this connection has started (on a kept-alive connection,
  // writing now would corrupt an earlier request's answer still being sent).
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify({ errorCode, message });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}
