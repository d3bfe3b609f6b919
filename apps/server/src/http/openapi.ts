import fastifySwagger from '@fastify/swagger';
import { ApiErrorSchema } from '@polyflow/contracts/errors';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';

/** Who may call a route: the security requirement the OpenAPI document states for it. */
export type RouteAuth =
  | 'none'
  | 'session'
  | 'session-or-read-token'
  | 'session-or-write-token'
  | 'api-key-in-body'
  | 'metrics-token';

type DocResponse = {
  description: string;
  /** The body's contract schema (JSON unless `contentType` says otherwise). */
  schema?: z.ZodType;
  /** Non-JSON bodies (the raw export, the live stream, the SDK script): their media types. */
  contentTypes?: string[];
};

/**
 * A REST route's entry in `GET /api/v1/openapi.json`, declared beside the route as `config: { docs }`: the
 * same zod schemas the handler parses with, turned into JSON Schema 2020-12 (OpenAPI 3.1) by zod itself.
 * Errors (`{errorCode, message}`) are added to every route from the contract's ApiErrorSchema.
 */
export type RouteDocs = {
  summary: string;
  description?: string;
  tag: string;
  auth: RouteAuth;
  body?: z.ZodType;
  /** A JSON body the handler parses itself from text (ingestion takes `text/plain`, no CORS preflight). */
  bodyContentTypes?: string[];
  query?: z.ZodType;
  responses: Record<number, DocResponse>;
};

/** Routes that are not part of the REST API: files and the GraphQL endpoint (its own reference). */
export type NotRest = { notRest: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    docs?: RouteDocs | NotRest;
  }
}

const SECURITY: Record<RouteAuth, Record<string, string[]>[] | undefined> = {
  none: [],
  session: [{ session: [] }],
  'session-or-read-token': [{ session: [] }, { readToken: [] }],
  'session-or-write-token': [{ session: [] }, { writeToken: [] }],
  // The API key travels in the JSON body (`apiKey`), which OpenAPI cannot name as a security scheme.
  'api-key-in-body': [],
  'metrics-token': [{ metricsToken: [] }],
};

/** JSON Schema 2020-12 of a zod schema: what a client sends (`input`) or receives (`output`). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return json;
}

const errorBody = () => jsonSchemaOf(ApiErrorSchema, 'output');

/** The @fastify/swagger route schema for one documented route. */
function routeSchema(docs: RouteDocs): Record<string, unknown> {
  const response: Record<string, unknown> = {};
  for (const [status, { description, schema, contentTypes }] of Object.entries(docs.responses)) {
    if (contentTypes) {
      const body = { schema: schema ? jsonSchemaOf(schema, 'output') : { type: 'string' } };
      response[status] = {
        description,
        content: Object.fromEntries(contentTypes.map((type) => [type, body])),
      };
    } else if (schema) {
      response[status] = { description, ...jsonSchemaOf(schema, 'output') };
    } else {
      response[status] = { description, type: 'null' };
    }
  }
  response['4XX'] = { description: 'Refused: `{errorCode, message}` (see Troubleshooting)', ...errorBody() };
  response['5XX'] = { description: 'Unavailable: `{errorCode, message}`', ...errorBody() };
  return {
    summary: docs.summary,
    ...(docs.description ? { description: docs.description } : {}),
    tags: [docs.tag],
    ...(SECURITY[docs.auth] ? { security: SECURITY[docs.auth] } : {}),
    ...(docs.body ? { body: jsonSchemaOf(docs.body, 'input') } : {}),
    ...(docs.bodyContentTypes ? { consumes: docs.bodyContentTypes } : {}),
    ...(docs.query ? { querystring: jsonSchemaOf(docs.query, 'input') } : {}),
    response,
  };
}

export const OPENAPI_PATH = '/api/v1/openapi.json';

/**
 * Routes registered by plugins that are not REST endpoints, so absent from the document: the GraphQL
 * endpoint (its own reference, generated from docs/graphql-schema.graphql) and the static files of the
 * console and of the documentation site. Anything else without `config.docs` is listed without a summary.
 */
export const NOT_REST_ROUTES: { url: string; why: string }[] = [
  { url: '/api/graphql', why: 'GraphQL (see the GraphQL reference)' },
  { url: '/graphql', why: 'GraphQL (mercurius)' },
  { url: '/*', why: "the console's files" },
  { url: '/docs', why: 'the documentation site' },
  { url: '/docs/', why: 'the documentation site' },
  { url: '/docs/*', why: "the documentation site's files" },
];
const isNotRest = (url: string) => NOT_REST_ROUTES.some((route) => route.url === url);

/**
 * Collects every route as it is registered (so it must be installed before the modules) and serves the
 * OpenAPI 3.1 document at `/api/v1/openapi.json`. A route without `config.docs` is still listed, with no
 * summary: the test that compares the document with Fastify's routes fails on it.
 */
export async function installOpenApi(app: FastifyInstance) {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Polyflow REST API',
        version: '1.0.0',
        description:
          'The REST API of a Polyflow server, generated from the routes and the zod schemas they validate with. ' +
          'Every refusal is `{errorCode, message}` with a 4xx or 5xx status; the dashboards are read through ' +
          'GraphQL (`POST /api/graphql`, see the GraphQL reference). Request bodies are sent uncompressed: ' +
          'a `Content-Encoding` other than `identity` is refused with 415 `UNSUPPORTED_CONTENT_ENCODING`.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      components: {
        securitySchemes: {
          session: {
            type: 'http',
            scheme: 'bearer',
            description: 'A console session token, from `POST /api/v1/login`.',
          },
          readToken: {
            type: 'http',
            scheme: 'bearer',
            description: "A project's read token (`pf_read_…`), from the console's Data access screen.",
          },
          writeToken: {
            type: 'http',
            scheme: 'bearer',
            description: "A project's write token (`pfw_…`): uploads source maps, nothing else.",
          },
          metricsToken: { type: 'http', scheme: 'bearer', description: "The server's `METRICS_TOKEN`." },
        },
      },
    },
    hiddenTag: 'not-rest',
    transform: ({ schema, url, route }) => {
      const docs = (route as RouteOptions).config?.docs;
      if (!docs) return isNotRest(url) ? { schema: { hide: true }, url } : { schema, url };
      if ('notRest' in docs) return { schema: { hide: true }, url };
      return { schema: routeSchema(docs) as typeof schema, url };
    },
  });
  app.get(
    OPENAPI_PATH,
    {
      config: {
        docs: {
          summary: 'This document: the REST API as OpenAPI 3.1',
          tag: 'Reference',
          auth: 'none',
          responses: { 200: { description: 'The OpenAPI 3.1 document.' } },
        },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-cache').send(app.swagger()),
  );
}
