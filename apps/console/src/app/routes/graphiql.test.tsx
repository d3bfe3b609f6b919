import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { screen, waitFor } from '@testing-library/react';
import { buildSchema, graphql } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildProject, logIn } from '../../testing/fixtures';
import { json, mockApi } from '../../testing/mock-api';
import { renderApp } from '../../testing/render-app';

// The published schema (kept in sync with the server by its own test) answers GraphiQL's introspection.
const schema = buildSchema(
  readFileSync(resolve(import.meta.dirname, '../../../../../docs/graphql-schema.graphql'), 'utf8'),
);

describe('GraphiQL route', () => {
  it('sends a visitor without a session to the login screen', async () => {
    const api = mockApi({});
    const { location } = renderApp('/console/some-project/graphiql');
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeTruthy();
    expect(location()).toBe('/');
    expect(api.requests.filter((request) => request.path === '/api/graphql')).toHaveLength(0);
  });

  it('shows a signed-in owner the editor, which asks /api/graphql with the session headers', async () => {
    logIn();
    // biome-ignore lint/suspicious/noDocumentCookie: the XSRF cookie is what the console reads.
    document.cookie = 'XSRF-TOKEN=xsrf-7';
    const project = buildProject({ name: 'Uniswap clone' });
    const api = mockApi({
      'GET /projects': json(200, { projects: [project] }),
      'POST /api/graphql': async (request) => {
        const { query, variables } = request.body as { query: string; variables?: Record<string, unknown> };
        return json(200, await graphql({ schema, source: query, variableValues: variables ?? null }));
      },
    });
    renderApp(`/console/${project.id}/graphiql`);

    expect(await screen.findByRole('heading', { name: 'GraphQL API' }, { timeout: 25_000 })).toBeTruthy();
    expect(await screen.findByRole('button', { name: /Execute query/ }, { timeout: 25_000 })).toBeTruthy();
    await waitFor(() => expect(api.requests.some((request) => request.path === '/api/graphql')).toBe(true));
    const introspection = api.requests.find((request) => request.path === '/api/graphql');
    expect(introspection?.method).toBe('POST');
    expect(introspection?.headers.get('Authorization')).toBe('Bearer session-token');
    expect(introspection?.headers.get('X-XSRF-TOKEN')).toBe('xsrf-7');
    expect(JSON.stringify(introspection?.body)).toContain('__schema');
    expect(screen.getByRole('link', { name: 'GraphQL API' }).getAttribute('aria-current')).toBe('page');
    // GraphiQL and its editors are a large lazy chunk: their first transform in a run takes a while.
  }, 30_000);
});
