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

    // 1,000 aliases are over the fields' limit too (selection-limit.ts): both refusals are told.
    const thousand = await ask(`{ ${aliases(1000)} }`);
    expect(thousand.statusCode).toBe(400);
    expect(errorsOf(thousand.body).map((error) => error.message)).toContainEqual(
      expect.stringMatching(
        /^An operation may ask at most 20 root fields \(aliases included\); this one asks 1000\./,
      ),
    );
    for (const query of [
      `{ ${aliases(21)} }`,
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

  it('limits the fields an operation selects at any level, aliases and fragment spreads counted, before any resolver runs', async () => {
    const ask = (query: string) =>
      t.app.inject({ method: 'POST', url: '/api/graphql', headers: json, payload: { query } });
    const names = (n: number, prefix = 'n') =>
      Array.from({ length: n }, (_, i) => `${prefix}${i}: name`).join(' ');
    const refusedFor = async (query: string) => {
      const refused = await ask(query);
      expect(refused.statusCode).toBe(400);
      return errorsOf(refused.body);
    };
    const limitError = (count: string) => ({
      message: `An operation may select at most 200 fields (aliases included, a fragment counted wherever it is spread); this one selects ${count}. Ask each field once, or send the rest in other requests.`,
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });

    // __schema, types and 198 names: 200 fields, answered; one more is refused.
    const atLimit = await ask(`{ __schema { types { ${names(198)} } } }`);
    expect(atLimit.statusCode).toBe(200);
    expect(Object.keys(atLimit.json().data.__schema.types[0])).toHaveLength(198);
    expect(await refusedFor(`{ __schema { types { ${names(199)} } } }`)).toEqual([limitError('201')]);

    // The attack as reported: 160 aliases of a wallet's sessions, each with 160 aliases under its events,
    // without a session. Refused during validation: a resolver would have answered 401 for want of one.
    const events = `events { ${Array.from({ length: 160 }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    const sessions = Array.from({ length: 160 }, (_, i) => `s${i}: sessions { ${events} }`).join(' ');
    const attack = `{ wallet(projectId: "p", address: "0x${'ab'.repeat(20)}") { ${sessions} } }`;
    expect(await refusedFor(attack)).toEqual([limitError(String(1 + 160 * (1 + 1 + 160)))]);

    // A fragment counts wherever it is spread: 1 + 3 × (1 + 66) = 202 (the root-field rule counts it once).
    const spreadThrice = `{ __schema { a: types { ...T } b: types { ...T } c: types { ...T } } } fragment T on __Type { ${names(66)} }`;
    expect(await refusedFor(spreadThrice)).toEqual([limitError('202')]);
    // Fragments spreading the next one twice: 2^40 fields, counted at once (each fragment once) and refused.
    const doubling = Array.from(
      { length: 40 },
      (_, i) => `fragment F${i} on __Type { ...F${i + 1} ...F${i + 1} }`,
    );
    const exploding = `{ __schema { types { ...F0 } } } ${doubling.join(' ')} fragment F40 on __Type { name }`;
    expect(await refusedFor(exploding)).toEqual([limitError('over a million')]);
    // Inline fragments count as their fields.
    expect(await refusedFor(`{ __schema { types { ... on __Type { ${names(199)} } } } }`)).toEqual([
      limitError('201'),
    ]);
  });

  it('refuses a document nested thousands deep or of thousands of fragments with a message, not a stack overflow', async () => {
    const ask = (query: string) =>
      t.app.inject({ method: 'POST', url: '/api/graphql', headers: json, payload: { query } });
    const nestedMessage =
      'The document is nested more than 64 levels deep ({, [ and ( counted); an operation may be at most 12 levels deep.';
    const deepSelections = `{ __schema { types { ${'ofType { '.repeat(5000)} name ${'} '.repeat(5000)} } } }`;
    const deepValue = `query($a: [Int] = ${'['.repeat(5000)}1${']'.repeat(5000)}) { health }`;
    for (const query of [deepSelections, deepValue]) {
      const refused = await ask(query);
      expect(refused.statusCode).toBe(400);
      expect(errorsOf(refused.body)).toEqual([
        { message: nestedMessage, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
      ]);
    }
    // Brackets in strings and comments are not nesting.
    const quoted = await ask(`{ __type(name: "${'['.repeat(100)}") { name } health # ${'{'.repeat(100)}\n }`);
    expect([quoted.statusCode, quoted.json()]).toEqual([200, { data: { __type: null, health: true } }]);

    const chain = Array.from({ length: 5000 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} }`);
    const refused = await ask(`{ ...F0 } ${chain.join(' ')} fragment F5000 on Query { health }`);
    expect([refused.statusCode, errorsOf(refused.body)]).toEqual([
      400,
      [
        {
          message: 'A document may define at most 100 fragments; this one defines more.',
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        },
      ],
    ]);
  });
});
