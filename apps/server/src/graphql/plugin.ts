import type { FastifyInstance } from 'fastify';
import { GraphQLError } from 'graphql';
import mercurius from 'mercurius';
import type { AppError } from '../errors.ts';
import { requireUser } from '../modules/auth/guard.ts';
import { formatGraphqlErrors, replyToGraphqlRequestError } from './errors.ts';
import type { GraphqlModule } from './module.ts';
import { composeSchema } from './schema.ts';

export type GraphqlOptions = { modules: readonly GraphqlModule[] };

export const GRAPHQL_PATH = '/api/graphql';

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * `POST /api/graphql` (mercurius). Console queries authenticate with a Bearer token; dapps on the
 * published 1.0.25 SDK send `X-API-KEY` with `application/json`, which needs a CORS preflight.
 */
export async function graphqlPlugin(app: FastifyInstance, { modules }: GraphqlOptions): Promise<void> {
  const { schema, resolvers } = composeSchema(modules);

  // The preflight carries no key, so any origin gets it, for the key header only (never Authorization,
  // never credentials): the POST itself is refused unless the key's whitelist holds its Origin.
  app.options(GRAPHQL_PATH, async (request, reply) => {
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-allow-methods', 'POST, OPTIONS');
      reply.header('access-control-allow-headers', 'content-type, x-api-key');
      reply.header('access-control-max-age', '600');
    }
    return reply.status(204).send();
  });

  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.url !== GRAPHQL_PATH) return;
    const body = request.body as { query?: unknown; variables?: Record<string, unknown> } | undefined;
    const query = request.method === 'GET' ? (request.query as { query?: unknown }).query : body?.query;
    // Mercurius takes a query that is not GraphQL but parses as JSON for a ready-made syntax tree, which
    // GraphQL's validation then crashes on (`{"query": 12}`: the body schema makes it "12"). No
    // GraphQL document is valid JSON, and JSON.parse gives up on a real document at its first words.
    if (typeof query === 'string' && parsesAsJson(query)) {
      throw new GraphQLError('The query must be a GraphQL document.', {
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      });
    }
    // @polyflow/sdk@1.0.25 sends CreateSdkErrorEvent's input as the variables themselves instead of
    // under `event`; without this its own failure reports would all fail validation.
    const variables = body?.variables;
    if (
      request.method === 'POST' &&
      typeof body?.query === 'string' &&
      body.query.includes('createSdkErrorEvent') &&
      variables &&
      typeof variables === 'object' &&
      !('event' in variables) &&
      'tracker' in variables
    ) {
      body.variables = { event: variables };
    }
  });

  await app.register(mercurius, {
    schema,
    resolvers,
    path: GRAPHQL_PATH,
    graphiql: false,
    queryDepth: 12,
    context: (request, reply) => {
      const header = request.headers['x-api-key'];
      return {
        request,
        reply,
        requireUser: () => requireUser(request),
        apiKey: typeof header === 'string' ? header : undefined,
      };
    },
    errorHandler: replyToGraphqlRequestError,
    errorFormatter: (execution, context) => {
      // A rate limit or a full disk tells the client when to come back, as REST does.
      for (const error of execution.errors ?? []) {
        const retryAfter = (error.originalError as AppError | undefined)?.retryAfterSeconds;
        if (retryAfter !== undefined) context.reply.header('retry-after', String(retryAfter));
      }
      return formatGraphqlErrors(execution, (error) =>
        context.reply.request.log.error({ err: error }, 'GraphQL resolver failed'),
      );
    },
  });
}
