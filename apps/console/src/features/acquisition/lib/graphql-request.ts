import { z } from 'zod';
import { ApiError } from '../../../lib/api-client';
import { getActiveSession } from '../../../lib/session';
import { clearStoredSession } from '../../../lib/storage';

/** The server's GraphQL endpoint (outside /api/v1, so no XSRF header is needed). */
export const GRAPHQL_PATH = '/api/graphql';

const GraphqlErrorSchema = z.object({
  message: z.string(),
  extensions: z
    .object({ code: z.string().optional(), errorCode: z.string().optional(), status: z.number().optional() })
    .optional(),
});
const GraphqlAnswerSchema = z.object({
  data: z.record(z.string(), z.unknown()).nullish(),
  errors: z.array(GraphqlErrorSchema).optional(),
});

/**
 * POSTs one query with the session's bearer token and parses `data[field]` with the contract's schema.
 * A GraphQL error becomes an ApiError carrying the REST errorCode when the server gave one.
 */
export async function graphqlRequest<T>(
  document: string,
  variables: Record<string, unknown>,
  { field, schema, signal }: { field: string; schema: z.ZodType<T>; signal?: AbortSignal | undefined },
): Promise<T> {
  const session = getActiveSession();
  if (!session) throw new ApiError('NOT_LOGGED_IN', 'Not logged in');
  let response: Response;
  try {
    response = await fetch(GRAPHQL_PATH, {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        Authorization: `Bearer ${session.token}`,
      },
      body: JSON.stringify({ query: document, variables }),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('NETWORK_ERROR', 'Could not reach the Polyflow server. Check your connection.');
  }
  const answer = GraphqlAnswerSchema.safeParse(await response.json().catch(() => undefined));
  if (!answer.success) {
    throw new ApiError('HTTP_ERROR', `The server answered ${response.status}`.trim(), response.status);
  }
  const error = answer.data.errors?.[0];
  if (error) {
    const code = error.extensions?.errorCode ?? error.extensions?.code ?? 'GRAPHQL_ERROR';
    const status = error.extensions?.status ?? response.status;
    if (code === 'BAD_AUTHENTICATION' || status === 401) clearStoredSession();
    throw new ApiError(code, error.message, status);
  }
  const parsed = schema.safeParse(answer.data.data?.[field]);
  if (!parsed.success) {
    throw new ApiError('INVALID_RESPONSE', 'The server sent an answer the console does not understand.');
  }
  return parsed.data;
}
