import type { FastifyInstance } from 'fastify';
import { apiClient } from '../support/client.ts';

export type GraphqlAnswer = {
  status: number;
  data: Record<string, unknown> | null | undefined;
  errors: { message: string; extensions?: Record<string, unknown> }[] | undefined;
};

/** POST /api/graphql the way the console does: Bearer token (and the tolerated X-API-KEY header). */
export function graphqlClient(app: FastifyInstance) {
  const api = apiClient(app);
  return async (
    query: string,
    variables: Record<string, unknown>,
    options: { token?: string; headers?: Record<string, string> } = {},
  ): Promise<GraphqlAnswer> => {
    const response = await api.post('/api/graphql', {
      body: { query, variables },
      token: options.token,
      headers: options.headers,
    });
    const body = response.json() as Pick<GraphqlAnswer, 'data' | 'errors'>;
    return { status: response.statusCode, data: body.data, errors: body.errors };
  };
}

/** The data of an answer that must have succeeded. */
export function dataOf(answer: GraphqlAnswer): Record<string, unknown> {
  if (answer.errors?.length || !answer.data) {
    throw new Error(`GraphQL failed (${answer.status}): ${JSON.stringify(answer.errors)}`);
  }
  return answer.data;
}

/** The one error of an answer that must have failed, with no data for the failed field. */
export function errorOf(answer: GraphqlAnswer): { message: string; code: unknown } {
  const error = answer.errors?.[0];
  if (!error) throw new Error(`Expected an error, got ${JSON.stringify(answer.data)}`);
  return { message: error.message, code: error.extensions?.code };
}
