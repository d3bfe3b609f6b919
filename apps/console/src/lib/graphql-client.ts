import { z } from 'zod';
import type { TypedDocumentString } from '../gql/graphql';
import { ApiError, readCookie } from './api-client';
import { getActiveSession } from './session';
import { clearStoredSession } from './storage';

export const GRAPHQL_URL = '/api/graphql';

const GraphqlErrorSchema = z.object({
  message: z.string(),
  extensions: z
    .object({ code: z.string().optional(), errorCode: z.string().optional(), status: z.number().optional() })
    .passthrough()
    .optional(),
});
const GraphqlResponseSchema = z.object({
  data: z.unknown().optional(),
  errors: z.array(GraphqlErrorSchema).optional(),
});

interface GraphqlOptions<TVariables> {
  /** Typed by the document (src/gql/, generated from docs/graphql-schema.graphql: `npm run codegen`). */
  variables: TVariables;
  signal?: AbortSignal | undefined;
}

/**
 * The headers of a signed-in GraphQL POST: Bearer token and (spec §6) the same token as X-API-KEY, which
 * the server tolerates, and (spec §7) the anti-forgery header when its cookie exists. Throws NOT_LOGGED_IN
 * without a live session. GraphiQL sends its requests with these too.
 */
export function signedInGraphqlHeaders(): Record<string, string> {
  const session = getActiveSession();
  if (!session) throw new ApiError('NOT_LOGGED_IN', 'Not logged in');
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': 'application/json',
    Authorization: `Bearer ${session.token}`,
    'X-API-KEY': session.token,
  };
  const xsrf = readCookie('XSRF-TOKEN');
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  return headers;
}

/**
 * A signed-in GraphQL request of one operation: `document` is a `graphql(...)` document, whose result and
 * variables types codegen derived from the schema (so a field the schema lacks fails the typecheck).
 * Bearer token and (spec §6) the same token as X-API-KEY, which the server tolerates. Errors become
 * ApiErrors like REST ones: the first GraphQL error's code and message. A missing or expired session (HTTP
 * 401, or `extensions.status` 401 inside a 200/400 answer) ends the stored session, exactly as api-client
 * does for REST.
 */
export async function graphqlRequest<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  { variables, signal }: GraphqlOptions<TVariables>,
): Promise<TResult> {
  const query = document.toString();
  const headers = signedInGraphqlHeaders();

  let response: Response;
  try {
    response = await fetch(GRAPHQL_URL, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables }),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('NETWORK_ERROR', 'Could not reach the Polyflow server. Check your connection.');
  }

  const body: unknown = await response.json().catch(() => undefined);
  const parsed = GraphqlResponseSchema.safeParse(body);
  const firstError = parsed.success ? parsed.data.errors?.[0] : undefined;
  const status = firstError?.extensions?.status ?? response.status;
  if (status === 401) clearStoredSession();
  if (firstError) {
    const code = firstError.extensions?.errorCode ?? firstError.extensions?.code ?? 'GRAPHQL_ERROR';
    throw new ApiError(code, firstError.message, status);
  }
  if (!response.ok || !parsed.success) {
    throw new ApiError(
      'HTTP_ERROR',
      `The server answered ${response.status} ${response.statusText}`.trim(),
      response.status,
    );
  }
  // The shape of `data` is the document's, as the server validates its answers against the same schema.
  const data = parsed.data.data;
  if (typeof data !== 'object' || data === null) {
    throw new ApiError('INVALID_RESPONSE', 'The server sent an answer the console does not understand.', 0);
  }
  return data as TResult;
}
