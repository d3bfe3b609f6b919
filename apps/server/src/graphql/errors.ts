import { type ExecutionResult, GraphQLError } from 'graphql';
import { AppError } from '../errors.ts';

/**
 * The one place GraphQL errors get their `extensions.code`: an AppError keeps its errorCode (and
 * HTTP status as `extensions.status`), a GraphQL syntax or validation error says so, anything else is
 * an INTERNAL_ERROR whose message and stack stay in the log.
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
    if (original instanceof AppError) {
      return new GraphQLError(original.message, {
        path: error.path,
        extensions: {
          code: original.errorCode,
          status: original.status,
          ...(original.details && { details: original.details }),
        },
      });
    }
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
    log(original);
    return new GraphQLError('Internal error.', { path: error.path, extensions: { code: 'INTERNAL_ERROR' } });
  });
  const hasData = execution.data !== undefined && execution.data !== null;
  return {
    statusCode: hasData ? 200 : errors.some(isClientError) ? 400 : 500,
    response: { data: execution.data ?? null, errors },
  };
}

function isClientError(error: GraphQLError): boolean {
  const status = error.extensions.status;
  return error.extensions.code !== 'INTERNAL_ERROR' && (typeof status !== 'number' || status < 500);
}
