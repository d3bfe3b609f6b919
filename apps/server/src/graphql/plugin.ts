import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { ExecutionResult } from 'graphql';
import type { IResolvers, MercuriusContext } from 'mercurius';
import sJSON from 'secure-json-parse';
import type { AppError } from '../errors.ts';
import { answerPreflight } from '../http/cors.ts';
import { requireUser } from '../modules/auth/guard.ts';
import { requireReader } from '../modules/read-tokens/guard.ts';
import { documentRefusal, MAX_QUERY_DEPTH } from './document-limits.ts';
import { formatGraphqlErrors, replyToGraphqlRequestError } from './errors.ts';
import { loadGraphql } from './library.ts';
import type { GraphqlModule } from './module.ts';
import { rootFieldLimit } from './root-field-limit.ts';
import { composeSchema } from './schema.ts';
import { fieldSelectionLimit } from './selection-limit.ts';

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

/** Runs one document: mercurius's `app.graphql` (parse with its cache, validation, depth limit, execution). */
type Execute = (
  source: string,
  context: MercuriusContext,
  variables: Record<string, unknown> | null | undefined,
  operationName: string | null | undefined,
) => Promise<ExecutionResult>;

type Engine = {
  execute: Execute;
  /** Mercurius's own errors, so that a refused request reads as it did when mercurius served the route. */
  errors: typeof import('mercurius/lib/errors.js')['default'];
  close(): Promise<void>;
};

/**
 * The schema and mercurius, made by the first request to the endpoint (docs/decisions/099): graphql-js,
 * mercurius and the built schema are about 7 MB of an idle server's memory that a server nobody queried
 * never needs. Mercurius runs on a Fastify instance of its own that never listens; the routes below (on
 * the server's own instance, under all its hooks) hand it each document as its own routes would.
 */
async function createEngine(
  { modules, onQuery }: GraphqlOptions,
  errorFormatter: (execution: ExecutionResult, context: MercuriusContext) => unknown,
): Promise<Engine> {
  const [graphql, { default: mercurius }, errors] = await Promise.all([
    loadGraphql(),
    import('mercurius'),
    import('mercurius/lib/errors.js'),
  ]);
  const composed = composeSchema(modules, graphql);
  const resolvers = onQuery ? timeQueries(composed.resolvers, onQuery) : composed.resolvers;
  const engine = Fastify({ logger: false });
  await engine.register(mercurius, {
    schema: composed.schema,
    resolvers,
    path: GRAPHQL_PATH,
    graphiql: false,
    queryDepth: MAX_QUERY_DEPTH,
    validationRules: [rootFieldLimit, fieldSelectionLimit],
    errorFormatter: errorFormatter as never,
  });
  await engine.ready();
  return {
    execute: (source, context, variables, operationName) =>
      engine.graphql(source, context, variables as never, operationName as never) as Promise<ExecutionResult>,
    errors: errors.default,
    close: () => engine.close(),
  };
}

// As mercurius's own routes declare them (lib/routes.js): the answer's shape, and what a request may hold.
const responseProperties = {
  data: { type: ['object', 'null'], additionalProperties: true },
  errors: {
    type: 'array',
    items: {
      type: 'object',
      required: ['message'],
      properties: {
        message: { type: 'string' },
        locations: {
          type: 'array',
          items: { type: 'object', properties: { line: { type: 'integer' }, column: { type: 'integer' } } },
        },
        path: { type: 'array', items: { type: 'string' } },
        extensions: { type: 'object', properties: { code: { type: 'string' } }, additionalProperties: true },
      },
    },
  },
  extensions: { type: 'object', additionalProperties: true },
};
const requestProperties = {
  query: { type: 'string' },
  persisted: { type: 'boolean' },
  operationName: { type: ['string', 'null'] },
};
const response = { '2xx': { type: 'object', properties: responseProperties } };
const getSchema = {
  querystring: {
    type: 'object',
    properties: { ...requestProperties, variables: { type: 'string' }, extensions: { type: 'string' } },
  },
  response,
};
const postSchema = {
  body: {
    type: 'object',
    properties: {
      ...requestProperties,
      variables: { type: ['object', 'null'] },
      extensions: { type: 'object' },
    },
  },
  response,
};

type GraphqlRequest = {
  query?: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
};

export type GraphqlEndpoint = {
  /** The routes of `/api/graphql` (POST, GET, OPTIONS): a Fastify plugin. */
  routes(app: FastifyInstance): Promise<void>;
  /**
   * Makes the schema and mercurius in the background, if not made yet: called when the console's page is
   * served, so that its first query does not wait for them.
   */
  prepare(): void;
};

/**
 * `POST /api/graphql` (and GET, as mercurius serves it). Console queries authenticate with a Bearer token;
 * dapps on the published 1.0.25 SDK send `X-API-KEY` with `application/json`, which needs a CORS preflight.
 * The schema and mercurius are made by the first request (or `prepare`), not at start.
 */
export function createGraphqlEndpoint(options: GraphqlOptions): GraphqlEndpoint {
  const errorFormatter = (execution: ExecutionResult, context: MercuriusContext) => {
    // A rate limit or a full disk tells the client when to come back, as REST does.
    for (const error of execution.errors ?? []) {
      const retryAfter = (error.originalError as AppError | undefined)?.retryAfterSeconds;
      if (retryAfter !== undefined) context.reply.header('retry-after', String(retryAfter));
    }
    return formatGraphqlErrors(execution, (error) =>
      context.reply.request.log.error({ err: error }, 'GraphQL resolver failed'),
    );
  };
  let engine: Promise<Engine> | undefined;
  const loadEngine = (): Promise<Engine> => {
    engine ??= createEngine(options, errorFormatter).catch((error: unknown) => {
      engine = undefined;
      throw error;
    });
    return engine;
  };
  return {
    routes: (app) => graphqlRoutes(app, loadEngine, () => engine),
    prepare() {
      // A failure is the next request's to report (it tries again).
      if (!engine) setImmediate(() => loadEngine().catch(() => undefined));
    },
  };
}

async function graphqlRoutes(
  app: FastifyInstance,
  loadEngine: () => Promise<Engine>,
  made: () => Promise<Engine> | undefined,
): Promise<void> {
  app.addHook('onClose', async () => {
    await (await made()?.catch(() => undefined))?.close();
  });

  // Errors before a document runs: a refused body, a content type, a hook's refusal (mercurius's errorHandler).
  app.setErrorHandler((error, request, reply) => replyToGraphqlRequestError(error, request, reply));

  // For the key header only (never Authorization): the console calls this path from its own origin.
  app.options(GRAPHQL_PATH, async (request, reply) =>
    answerPreflight(request, reply, { allowHeaders: 'content-type, x-api-key' }),
  );

  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.url !== GRAPHQL_PATH) return;
    const body = request.body as { query?: unknown; variables?: Record<string, unknown> } | undefined;
    const query = request.method === 'GET' ? (request.query as { query?: unknown }).query : body?.query;
    // Refused unparsed: text that is JSON, too deeply nested or of too many fragments (document-limits.ts).
    const refusal = typeof query === 'string' ? documentRefusal(query) : null;
    if (refusal) {
      const { GraphQLError } = await loadGraphql();
      throw new GraphQLError(refusal, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
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

  /** One document, as mercurius's routes run it: the context, the body's validation, then the document. */
  async function run(request: FastifyRequest, reply: FastifyReply, parsed: () => GraphqlRequest) {
    const { execute, errors } = await loadEngine();
    const header = request.headers['x-api-key'];
    const context = {
      request,
      reply,
      requireUser: () => requireUser(request),
      requireReader: () => requireReader(request),
      apiKey: typeof header === 'string' ? header : undefined,
    } as unknown as MercuriusContext;
    if (request.validationError) {
      const refused = new errors.MER_ERR_GQL_VALIDATION();
      refused.errors = [request.validationError];
      throw refused;
    }
    const { query, variables, operationName } = parsed();
    if (!query) return new errors.MER_ERR_GQL_PERSISTED_QUERY_NOT_FOUND('Unknown query');
    return execute(query, context, variables, operationName);
  }

  // A `variables` query parameter that is not JSON is refused as mercurius refuses it.
  const parseJsonParameter = async (value: string | undefined): Promise<unknown> => {
    if (value === undefined || value === '') return value === '' ? value : undefined;
    try {
      return sJSON.parse(value);
    } catch (error) {
      const { errors } = await loadEngine();
      const wrap = new errors.MER_ERR_GQL_VALIDATION();
      Object.assign(error as object, { code: wrap.code, statusCode: wrap.statusCode });
      throw error;
    }
  };

  app.get(GRAPHQL_PATH, { schema: getSchema, attachValidation: true }, async (request, reply) => {
    const params = request.query as GraphqlRequest & { variables?: string; extensions?: string };
    const variables = request.validationError ? undefined : await parseJsonParameter(params.variables);
    if (!request.validationError) await parseJsonParameter(params.extensions);
    return run(request, reply, () => ({ ...params, variables: variables as GraphqlRequest['variables'] }));
  });

  app.addContentTypeParser('application/graphql', { parseAs: 'string' }, (_request, payload, done) => {
    done(null, { query: payload });
  });

  app.post(GRAPHQL_PATH, { schema: postSchema, attachValidation: true }, async (request, reply) =>
    run(request, reply, () => request.body as GraphqlRequest),
  );
}
