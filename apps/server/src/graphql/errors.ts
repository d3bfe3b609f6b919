import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExecutionResult, GraphQLError } from 'graphql';
import { AppError, prepareErrorReply, toErrorResponse } from '../errors.ts';
import { loadedGraphql, loadGraphql } from './library.ts';

/**
 * The one place GraphQL errors get their `extensions.code`. Two conventions, both decided here:
 *  - the dashboard's queries and mutations (resolvers wrapped by {@link withGraphqlErrors}, through
 *    `reading/resolver.ts`): GraphQL's customary code for what the caller can fix (BAD_USER_INPUT,
 *    FORBIDDEN, NOT_FOUND, by HTTP status), with the REST errorCode alongside in `extensions.errorCode`;
 *  - everything else, such as the published SDK's create*Event mutations: the REST errorCode itself
 *    (NON_EXISTENT_API_KEY, INVALID_REQUEST_BODY…), the protocol that SDK was written against.
 * Both carry the HTTP status as `extensions.status` (and `details` when there are some).
 */
export const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_USER_INPUT',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
};

type Convention = 'customary' | 'errorCode';

function extensionsOf(
  status: number,
  body: { errorCode: string; details?: unknown },
  convention: Convention,
): Record<string, unknown> {
  const customary = convention === 'customary' ? CODE_BY_STATUS[status] : undefined;
  return {
    code: customary ?? body.errorCode,
    ...(customary && { errorCode: body.errorCode }),
    status,
    ...(body.details !== undefined && { details: body.details }),
  };
}

/**
 * Wraps a dashboard resolver: its expected failures (AppErrors of a status with a customary code) leave as
 * GraphQL errors with that code; a missing session (401) and the rest keep the errorCode convention.
 */
export function withGraphqlErrors<Args extends unknown[], Result>(
  resolve: (...args: Args) => Promise<Result>,
): (...args: Args) => Promise<Result> {
  return async (...args) => {
    try {
      return await resolve(...args);
    } catch (error) {
      if (!(error instanceof AppError) || !CODE_BY_STATUS[error.status]) throw error;
      // Loaded already: a resolver runs inside a GraphQL request.
      const { GraphQLError } = await loadGraphql();
      throw new GraphQLError(error.message, {
        extensions: extensionsOf(error.status, error, 'customary'),
      });
    }
  };
}

/**
 * Mercurius's errorFormatter: an AppError (or another expected error, mapped as REST maps it in
 * errors.ts) gets the errorCode convention above, unless a dashboard resolver already gave it its code; a
 * GraphQL syntax or validation error says so; anything else is an INTERNAL_ERROR whose message and stack
 * stay in the log. Runs once graphql-js is loaded (library.ts).
 */
export function formatGraphqlErrors(
  execution: ExecutionResult,
  log: (error: unknown) => void,
): { statusCode: number; response: ExecutionResult } {
  const { GraphQLError } = loadedGraphql();
  // Mercurius wraps parse and validation failures in one error whose `errors` holds the real ones.
  const flat = (execution.errors ?? []).flatMap((error) => {
    const wrapped = (error.originalError as { errors?: unknown } | undefined)?.errors;
    return Array.isArray(wrapped)
      ? wrapped.map(
          (inner: { message?: unknown }) =>
            new GraphQLError(String(inner.message ?? error.message), {
              extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
            }),
        )
      : [error];
  });
  const errors = flat.map((error) => {
    const original = error.originalError;
    if (original instanceof GraphQLError || typeof error.extensions?.code === 'string') {
      return new GraphQLError(error.message, { path: error.path, extensions: { ...error.extensions } });
    }
    if (!original) {
      // Parse and validation errors (unknown field, wrong variable type) have no original error.
      return new GraphQLError(error.message, {
        path: error.path,
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      });
    }
    const mapped = toErrorResponse(original);
    if (mapped) {
      return new GraphQLError(mapped.body.message, {
        path: error.path,
        extensions: extensionsOf(mapped.status, mapped.body, 'errorCode'),
      });
    }
    log(original);
    return new GraphQLError('Internal error.', { path: error.path, extensions: { code: 'INTERNAL_ERROR' } });
  });
  // A field that failed answers null: when every top-level field did, nothing was answered, and the
  // status says why (400 for a client's mistake) rather than 200.
  const hasData = Object.values(execution.data ?? {}).some((value) => value !== null);
  return {
    statusCode: hasData ? 200 : errors.some(isClientError) ? 400 : 500,
    response: { data: execution.data ?? null, errors },
  };
}

function isClientError(error: GraphQLError): boolean {
  const status = error.extensions.status;
  return error.extensions.code !== 'INTERNAL_ERROR' && (typeof status !== 'number' || status < 500);
}

/** Mercurius's error for a request whose document or variables are not valid GraphQL (`errors` inside). */
function isGraphqlRequestError(error: unknown): boolean {
  return Array.isArray((error as { errors?: unknown } | undefined)?.errors);
}

/**
 * Errors thrown before a GraphQL document runs (mercurius's `errorHandler`). A document or variables
 * GraphQL refuses is answered in GraphQL's format with 400. A request that is not a GraphQL request at
 * all (not JSON, too large, another content type, a refused XSRF or rate check) gets the status and
 * `{errorCode, message}` REST would give, with the same error under `errors` for GraphQL clients.
 */
export async function replyToGraphqlRequestError(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  // The first request to /api/graphql may fail before the endpoint has loaded graphql-js.
  const { GraphQLError } = await loadGraphql();
  if (
    isGraphqlRequestError(error) ||
    (error instanceof GraphQLError && !(error.originalError instanceof AppError))
  ) {
    const wrapped =
      error instanceof GraphQLError
        ? error
        : new GraphQLError(String((error as Error).message), { originalError: error as Error });
    const { statusCode, response } = formatGraphqlErrors({ errors: [wrapped] }, (cause) =>
      request.log.error({ err: cause }, 'GraphQL request failed'),
    );
    reply.code(statusCode).send(response);
    return;
  }
  const { status, body } = prepareErrorReply(error, request, reply);
  const graphqlError = { message: body.message, extensions: { code: body.errorCode, status } };
  reply.code(status).send({ ...body, errors: [graphqlError] });
}
