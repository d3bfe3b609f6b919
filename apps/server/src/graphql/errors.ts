import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ExecutionResult, GraphQLError } from 'graphql';
import { AppError, prepareErrorReply, toErrorResponse } from '../errors.ts';

/**
 * The one place GraphQL errors get their `extensions.code`: an AppError keeps its errorCode (and
 * HTTP status as `extensions.status`), a GraphQL syntax or validation error says so, another expected
 * error is mapped as REST maps it (errors.ts), anything else is an INTERNAL_ERROR whose message and
 * stack stay in the log.
 */
export function formatGraphqlErrors(
  execution: ExecutionResult,
  log: (error: unknown) => void,
): { statusCode: number; response: ExecutionResult } {
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
        extensions: {
          code: mapped.body.errorCode,
          status: mapped.status,
          ...(mapped.body.details && { details: mapped.body.details }),
        },
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
export function replyToGraphqlRequestError(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
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
