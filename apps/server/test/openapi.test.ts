import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { formatOpenApi, OPENAPI_FILE, servedOpenApi } from '../scripts/openapi.ts';
import { NOT_REST_ROUTES } from '../src/http/openapi.ts';

type Operation = { summary?: string; requestBody?: unknown; security?: unknown };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** `/api/v1/projects/:id` → `/api/v1/projects/{id}`, as OpenAPI spells path parameters. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('GET /api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document that lists, with a summary, every route Fastify registered', async () => {
    const routes: RouteOptions[] = [];
    const document = (await servedOpenApi((route) => routes.push(route))) as Document;

    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);

    const notRest = new Set(NOT_REST_ROUTES.map(({ url }) => url));
    const rest = routes
      .flatMap((route) =>
        (Array.isArray(route.method) ? route.method : [route.method]).map((method) => ({
          method,
          url: route.url,
        })),
      )
      // Fastify adds a HEAD route beside every GET; it answers the same without a body.
      .filter(({ method, url }) => method !== 'HEAD' && !notRest.has(url));
    expect(rest.length).toBeGreaterThan(20);
    const missing = rest.filter(
      ({ method, url }) => !document.paths[openApiPath(url)]?.[method.toLowerCase()],
    );
    expect(missing, 'routes missing from the OpenAPI document').toEqual([]);
    const undocumented = rest.filter(
      ({ method, url }) => !document.paths[openApiPath(url)]?.[method.toLowerCase()]?.summary,
    );
    expect(undocumented, 'routes without `config: { docs }` (see apps/server/src/http/openapi.ts)').toEqual(
      [],
    );

    // Every route the document lists is one Fastify serves (nothing invented).
    const served = new Set(rest.map(({ method, url }) => `${method.toLowerCase()} ${openApiPath(url)}`));
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of Object.keys(item)) expect(served).toContain(`${method} ${path}`);
    }
  }, 30_000);

  it('describes bodies with the schemas the routes validate with', async () => {
    const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Document;
    const login = document.paths['/api/v1/login']?.post as {
      requestBody: {
        content: Record<string, { schema: { required: string[]; additionalProperties: boolean } }>;
      };
    };
    expect(login.requestBody.content['application/json']?.schema.required).toEqual(['email', 'password']);
    expect(login.requestBody.content['application/json']?.schema.additionalProperties).toBe(false);
    const ingest = document.paths['/api/v1/events']?.post as {
      requestBody: { content: Record<string, { schema: { properties: { events: { maxItems: number } } } }> };
    };
    expect(ingest.requestBody.content['text/plain']?.schema.properties.events.maxItems).toBe(100);
    expect(document.paths['/api/v1/projects']?.get?.security).toEqual([{ session: [] }]);
  });

  it('is what docs/openapi.json holds (regenerate with `npm run docs:openapi`)', async () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8'), 'docs/openapi.json is stale: run npm run docs:openapi').toBe(
      formatOpenApi(await servedOpenApi()),
    );
  }, 30_000);
});
