import { GraphQLError } from 'graphql';
import { AppError } from '../errors.ts';

/** GraphQL's customary codes for the failures a query's caller can fix; the wire errorCode stays alongside. */
export const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_USER_INPUT',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
};

/**
 * Resolvers of the analytics, acquisition and incident queries throw through this: a malformed input
 * answers `extensions.code` BAD_USER_INPUT, someone else's project NOT_FOUND (exactly like a missing one),
 * with the REST errorCode in `extensions.errorCode`. A missing session keeps BAD_AUTHENTICATION.
 */
export function asGraphqlError(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  const code = CODE_BY_STATUS[error.status];
  if (!code) return error;
  return new GraphQLError(error.message, {
    extensions: {
      code,
      errorCode: error.errorCode,
      status: error.status,
      ...(error.details && { details: error.details }),
    },
  });
}

/** Wraps a resolver so its expected failures carry the codes above. */
export function withGraphqlErrors<Args extends unknown[], Result>(
  resolve: (...args: Args) => Promise<Result>,
): (...args: Args) => Promise<Result> {
  return async (...args) => {
    try {
      return await resolve(...args);
    } catch (error) {
      throw asGraphqlError(error);
    }
  };
}
