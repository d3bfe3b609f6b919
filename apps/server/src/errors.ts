import type { ErrorCode, FieldIssue } from '@polyflow/contracts/errors';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';

/** An expected failure: carries the HTTP status and the wire error code; the one handler below sends it. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: ErrorCode,
    message: string,
    readonly details?: FieldIssue[],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: FieldIssue[]) =>
  new AppError(400, 'INVALID_REQUEST_BODY', message, details);
export const unauthorized = (message = 'Missing, expired or invalid session; please log in again.') =>
  new AppError(401, 'BAD_AUTHENTICATION', message);
export const forbidden = (message: string) => new AppError(403, 'ACCESS_FORBIDDEN', message);
export const notFound = (message = 'Resource not found.') => new AppError(404, 'RESOURCE_NOT_FOUND', message);
export const rateLimited = (message = 'Too many requests; please wait a moment and try again.') =>
  new AppError(429, 'RATE_LIMITED', message);

export function zodIssues(error: ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

type ErrorBody = { errorCode: ErrorCode; message: string; details?: FieldIssue[] };

/** Errors from Fastify and its plugins (FST_ERR_* codes, http-errors) carry a statusCode. */
function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && typeof (error as FastifyError).statusCode === 'number';
}

const invalidBody = (message: string) => ({
  status: 400,
  body: { errorCode: 'INVALID_REQUEST_BODY' as const, message },
});

/** Maps a thrown value to the status and `{errorCode, message, details?}` the client gets; null if unexpected. */
export function toErrorResponse(error: unknown): { status: number; body: ErrorBody } | null {
  if (error instanceof AppError) {
    const body: ErrorBody = { errorCode: error.errorCode, message: error.message };
    if (error.details) body.details = error.details;
    return { status: error.status, body };
  }
  if (error instanceof ZodError) {
    return { status: 400, body: { ...invalidBody('Invalid request body.').body, details: zodIssues(error) } };
  }
  if (!isFastifyError(error)) return null;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: { errorCode: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large.' } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        body: { errorCode: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as application/json.' },
      };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return invalidBody('Invalid Content-Length.');
  }
  const status = error.statusCode ?? 500;
  // Body-parser failures: invalid JSON, an empty JSON body, prototype poisoning.
  if (status === 400) return invalidBody('Request body is not valid JSON.');
  if (status === 403) return toErrorResponse(forbidden('Access forbidden.'));
  if (status === 404) return toErrorResponse(notFound());
  if (status === 429) return toErrorResponse(rateLimited());
  if (status >= 400 && status < 500) return { status, body: invalidBody('Invalid request.').body };
  return null;
}

/**
 * The single place where errors become HTTP answers; unknown errors never leak a stack trace.
 * Unknown routes are answered by the console fallback (http/console.ts).
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const mapped = toErrorResponse(error);
    if (mapped) {
      // 503 is an expected state (ingestion back-pressure), asked of every client during an overload.
      if (mapped.status >= 500 && mapped.status !== 503) request.log.error({ err: error }, 'request failed');
      return reply.status(mapped.status).send(mapped.body);
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply
      .status(500)
      .send({ errorCode: 'INTERNAL_ERROR', message: `Internal error (request ${request.id}).` });
  });
}
