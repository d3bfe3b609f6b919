import type { FastifyInstance } from 'fastify';
import { GraphQLError } from 'graphql';
import mercurius, { type IResolvers } from 'mercurius';
import type { AppError } from '../errors.ts';
import { answerPreflight } from '../http/cors.ts';
import { requireUser } from '../modules/auth/guard.ts';
import { requireReader } from '../modules/read-tokens/guard.ts';
import { formatGraphqlErrors, replyToGraphqlRequestError } from './errors.ts';
import type { GraphqlModule } from './module.ts';
import { composeSchema } from './schema.ts';

export type GraphqlOptions = {
  modules: readonly GraphqlModule[];
  /** Told how long each query's root field took (dashboard questions on /metrics). */
  onQuery?(question: string, seconds: number): void;
};

type Resolver = (...args: unknown[]) => unknown;

/** Each Query field's resolver timed from its start to its result (or error). */
function timeQueries(
  resolvers: IResolvers,
  onQuery: (question: string, seconds: number) => void,
): IResolvers {
  const query = resolvers.Query as Record<string, Resolver> | undefined;
  if (!query) return resolvers;
  const timed = Object.fromEntries(
    Object.entries(query).map(([question, resolve]) => [
      question,
      async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await resolve(...args);
        } finally {
          onQuery(question, (performance.now() - started) / 1000);
        }
      },
    ]),
  );
  return { ...resolvers, Query: timed } as IResolvers;
}

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
export async function graphqlPlugin(
  app: FastifyInstance,
  { modules, onQuery }: GraphqlOptions,
): Promise<void> {
  const composed = composeSchema(modules);
  const schema = composed.schema;
  const resolvers = onQuery ? timeQueries(composed.resolvers, onQuery) : composed.resolvers;

  // For the key header only (never Authorization): the console calls this path from its own origin.
  app.options(GRAPHQL_PATH, async (request, reply) =>
    answerPreflight(request, reply, { allowHeaders: 'content-type, x-api-key' }),
  );

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
        requireReader: () => requireReader(request),
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
