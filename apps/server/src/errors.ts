import type { ErrorCode, FieldIssue } from '@polyflow/contracts/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';

/** An expected failure: carries the HTTP status and the wire error code; the one handler below sends it. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: ErrorCode,
    message: string,
    readonly details?: FieldIssue[],
    /** Sent as `Retry-After` (seconds) with 429 and 503 answers. */
    readonly retryAfterSeconds?: number,
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
export const rateLimited = (
  message = 'Too many requests; please wait a moment and try again.',
  retryAfterSeconds?: number,
) => new AppError(429, 'RATE_LIMITED', message, undefined, retryAfterSeconds);

/** Seconds a client is asked to wait before retrying when the disk holding DATA_DIR (or the database's) is full. */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 30;

export const storageFull = () =>
  new AppError(
    503,
    'STORAGE_FULL',
    'The server is out of storage space and cannot accept this now; nothing was written. Retry later.',
    undefined,
    STORAGE_FULL_RETRY_AFTER_SECONDS,
  );

/**
 * A write refused because the disk (or the database's quota) is full, from any store: the file system
 * (ENOSPC, EDQUOT), SQLite (SQLITE_FULL), PostgreSQL (class 53100 disk_full) or DuckDB (its IO error says so).
 */
export function isStorageFull(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || code === '53100') return true;
  return /No space left on device|database or disk is full|Disk quota exceeded/i.test(error.message);
}

export function zodIssues(error: ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

type ErrorBody = { errorCode: ErrorCode; message: string; details?: FieldIssue[] };
export type ErrorResponse = { status: number; body: ErrorBody; retryAfterSeconds?: number };

/** Errors from Fastify and its plugins (FST_ERR_* codes, http-errors, mercurius) carry a statusCode. */
function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && typeof (error as FastifyError).statusCode === 'number';
}

const answer = (status: number, errorCode: ErrorCode, message: string): ErrorResponse => ({
  status,
  body: { errorCode, message },
});

/** Framework errors whose own messages echo the input (a 5,000-character URL) get a fixed one. */
const FRAMEWORK_ERRORS: Record<string, ErrorResponse> = {
  FST_ERR_CTP_BODY_TOO_LARGE: answer(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large.'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: answer(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: answer(400, 'INVALID_REQUEST_BODY', 'Invalid Content-Length.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: answer(400, 'INVALID_REQUEST_BODY', 'Request body is empty.'),
  FST_ERR_CTP_INVALID_CONTENT_TYPE: answer(415, 'UNSUPPORTED_MEDIA_TYPE', 'Invalid Content-Type header.'),
  FST_ERR_CTP_INVALID_JSON_BODY: answer(400, 'INVALID_REQUEST_BODY', 'Request body is not valid JSON.'),
  FST_ERR_MAX_PARAM_LENGTH: answer(414, 'URI_TOO_LONG', 'A path parameter is too long.'),
  FST_ERR_BAD_URL: answer(400, 'INVALID_REQUEST', 'The URL is not valid (bad percent-encoding).'),
  FST_ERR_ASYNC_CONSTRAINT: answer(
    400,
    'INVALID_REQUEST',
    'The request does not match any route constraint.',
  ),
};

/**
 * Maps a thrown value to the status and `{errorCode, message, details?}` the client gets; null if
 * unexpected (a 500 whose details stay in the log). REST (the handler below) and GraphQL
 * (graphql/errors.ts) both answer through it.
 */
export function toErrorResponse(error: unknown): ErrorResponse | null {
  if (error instanceof AppError) {
    const body: ErrorBody = { errorCode: error.errorCode, message: error.message };
    if (error.details) body.details = error.details;
    return { status: error.status, body, retryAfterSeconds: error.retryAfterSeconds };
  }
  if (error instanceof ZodError) {
    return {
      status: 400,
      body: {
        errorCode: 'INVALID_REQUEST_BODY',
        message: 'Invalid request body.',
        details: zodIssues(error),
      },
    };
  }
  if (isStorageFull(error)) return toErrorResponse(storageFull());
  if (!isFastifyError(error)) {
    // JSON.parse and secure-json-parse (prototype poisoning) throw SyntaxErrors from body parsers.
    return error instanceof SyntaxError ? (FRAMEWORK_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY ?? null) : null;
  }
  const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
  if (known) return known;
  const status = error.statusCode ?? 500;
  // Body-parser failures without a code: invalid JSON, prototype poisoning.
  if (status === 400 && error instanceof SyntaxError)
    return FRAMEWORK_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY ?? null;
  if (status === 401) return toErrorResponse(unauthorized());
  if (status === 403) return toErrorResponse(forbidden('Access forbidden.'));
  if (status === 404) return toErrorResponse(notFound());
  if (status === 413) return FRAMEWORK_ERRORS.FST_ERR_CTP_BODY_TOO_LARGE ?? null;
  if (status === 415) return FRAMEWORK_ERRORS.FST_ERR_CTP_INVALID_MEDIA_TYPE ?? null;
  if (status === 429) return toErrorResponse(rateLimited());
  // Other client errors of the framework (a mercurius request error, a bad header) say what they are.
  if (status >= 400 && status < 500) return answer(status, 'INVALID_REQUEST', error.message.slice(0, 300));
  return null;
}

/** The answer for an error nothing expected: no message or stack, a request id to find it in the log. */
export const internalError = (requestId: string): ErrorResponse =>
  answer(500, 'INTERNAL_ERROR', `Internal error (request ${requestId}).`);

let storageFullReportedAt = 0;
function reportStorageFull(request: FastifyRequest, error: unknown): void {
  const now = Date.now();
  if (now - storageFullReportedAt < 60_000) return;
  storageFullReportedAt = now;
  request.log.error(
    { err: error },
    'storage is full: writes are refused with 503 STORAGE_FULL (nothing acknowledged is lost). Free space on the disk holding DATA_DIR (or the database server); ingestion and sign-ups resume by themselves, no restart needed. GET /api/v1/health with the metrics token shows the free space.',
  );
}

/** Maps, logs what needs a person's attention, and returns the answer (with `Retry-After` set). */
export function prepareErrorReply(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): ErrorResponse {
  const mapped = toErrorResponse(error);
  if (!mapped) {
    request.log.error({ err: error }, 'unexpected error');
    return internalError(request.id);
  }
  // 503 is an expected state (back-pressure); a full disk needs a person, told at most once a minute.
  if (mapped.status >= 500 && mapped.status !== 503) request.log.error({ err: error }, 'request failed');
  if (mapped.body.errorCode === 'STORAGE_FULL') reportStorageFull(request, error);
  if (mapped.retryAfterSeconds !== undefined) reply.header('retry-after', String(mapped.retryAfterSeconds));
  return mapped;
}

/**
 * The single place where errors become HTTP answers, framework errors included (the router's own,
 * through `frameworkErrors`); unknown errors never leak a stack trace.
 * Unknown routes are answered by the console fallback (http/console.ts).
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = prepareErrorReply(error, request, reply);
    return reply.status(status).send(body);
  });
}

/** For Fastify's `frameworkErrors` option: errors of the router (bad URL, over-long parameter). */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const { status, body } = prepareErrorReply(error, request, reply);
  reply.status(status).send(body);
}
