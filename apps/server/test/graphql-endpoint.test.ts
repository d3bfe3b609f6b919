import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/harness.ts';

/**
 * `/api/graphql` as mercurius's own routes served it, now that the routes are the server's and mercurius
 * only runs the documents (src/graphql/plugin.ts, docs/decisions/099): the request forms it takes and
 * the ones it refuses, each with its status and GraphQL's error format.
 */
describe('the GraphQL endpoint', () => {
  const t = useTestApp('sqlite');
  const json = { 'content-type': 'application/json' };
  const errorsOf = (body: string) =>
    (JSON.parse(body) as { errors?: { message: string; extensions?: { code?: string } }[] }).errors ?? [];

  it('answers POST (JSON or application/graphql) and GET queries', async () => {
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/graphql',
      headers: json,
      payload: { query: '{ health }' },
    });
    expect([posted.statusCode, posted.json()]).toEqual([200, { data: { health: true } }]);
    const graphqlBody = await t.app.inject({
      method: 'POST',
      url: '/api/graphql',
      headers: { 'content-type': 'application/graphql' },
      payload: '{ health }',
    });
    expect([graphqlBody.statusCode, graphqlBody.json()]).toEqual([200, { data: { health: true } }]);
    const got = await t.app.inject({
      method: 'GET',
      url: `/api/graphql?query=${encodeURIComponent('{ health }')}`,
    });
    expect([got.statusCode, got.json()]).toEqual([200, { data: { health: true } }]);
  });

  it('refuses a mutation over GET, a syntax error, a wrong body and non-JSON variables with 400', async () => {
    const mutation = await t.app.inject({
      method: 'GET',
      url: `/api/graphql?query=${encodeURIComponent('mutation($e: ErrorEventInput!) { createErrorEvent(event: $e) { __typename } }')}`,
    });
    expect(mutation.statusCode).toBe(400);
    expect(errorsOf(mutation.body)[0]?.message).toBe('Operation cannot be performed via a GET request');

    const syntax = await t.app.inject({
      method: 'POST',
      url: '/api/graphql',
      headers: json,
      payload: { query: '{ health ' },
    });
    expect(syntax.statusCode).toBe(400);
    expect(errorsOf(syntax.body)[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');

    const variables = await t.app.inject({
      method: 'POST',
      url: '/api/graphql',
      headers: json,
      payload: { query: '{ health }', variables: 5 },
    });
    expect(variables.statusCode).toBe(400);
    expect(errorsOf(variables.body)[0]).toEqual({
      message: 'body/variables must be object,null',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });

    const badJson = await t.app.inject({
      method: 'GET',
      url: '/api/graphql?query=%7B%20health%20%7D&variables=%7B',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toMatchObject({ errorCode: 'INVALID_REQUEST_BODY' });

    const noQuery = await t.app.inject({ method: 'POST', url: '/api/graphql', headers: json, payload: {} });
    expect(noQuery.statusCode).toBe(400);
    expect(noQuery.json()).toMatchObject({ errorCode: 'INVALID_REQUEST', message: 'Unknown query' });
  });

  it('limits the depth of a query', async () => {
    let selection = 'name';
    for (let depth = 0; depth < 12; depth++) selection = `ofType { ${selection} }`;
    const deep = await t.app.inject({
      method: 'POST',
      url: '/api/graphql',
      headers: json,
      payload: { query: `{ __schema { types { fields { type { ${selection} } } } } }` },
    });
    expect(deep.statusCode).toBe(400);
    expect(errorsOf(deep.body)[0]?.message).toMatch(/query depth/);
  });

  it('limits the root fields of an operation, aliases and fragments counted, before any question runs', async () => {
    const ask = (query: string) =>
      t.app.inject({ method: 'POST', url: '/api/graphql', headers: json, payload: { query } });
    const aliases = (n: number, prefix = 'a') =>
      Array.from({ length: n }, (_, i) => `${prefix}${i}: health`).join(' ');
    const twenty = await ask(`{ ${aliases(20)} }`);
    expect(twenty.statusCode).toBe(200);
    expect(Object.keys(twenty.json().data)).toHaveLength(20);

    for (const query of [
      `{ ${aliases(21)} }`,
      `{ ${aliases(1000)} }`,
      `{ ...A ...B } fragment A on Query { ${aliases(11)} } fragment B on Query { b: health ${aliases(10, 'b')} }`,
      `{ ... on Query { ${aliases(21)} } }`,
    ]) {
      const refused = await ask(query);
      expect(refused.statusCode).toBe(400);
      expect(errorsOf(refused.body)).toEqual([
        {
          message: expect.stringMatching(
            /^An operation may ask at most 20 root fields \(aliases included\); this one asks \d+\./,
          ),
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        },
      ]);
    }
    // The same fragment spread twice answers its fields once.
    const twice = await ask(`{ ...A ...A } fragment A on Query { ${aliases(20)} }`);
    expect(twice.statusCode).toBe(200);
  });
});
