import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildProject, logIn } from '../../testing/fixtures';
import { json, mockApi } from '../../testing/mock-api';
import { renderApp } from '../../testing/render-app';

describe('GraphiQL route', () => {
  it('sends a visitor without a session to the login screen', async () => {
    const api = mockApi({});
    const { location } = renderApp('/console/some-project/graphiql');
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeTruthy();
    expect(location()).toBe('/');
    expect(api.requests.filter((request) => request.path === '/api/graphql')).toHaveLength(0);
  });

  it('shows a signed-in owner the editor inside the console', async () => {
    logIn();
    const project = buildProject({ name: 'Uniswap clone' });
    const api = mockApi({
      'GET /projects': json(200, { projects: [project] }),
    });
    renderApp(`/console/${project.id}/graphiql`);

    expect(await screen.findByRole('heading', { name: 'GraphQL API' }, { timeout: 25_000 })).toBeTruthy();
    expect(await screen.findByRole('button', { name: /Execute query/ }, { timeout: 25_000 })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Operation Editor' })).toBeTruthy();
    // The schema is the published one, bundled: no introspection query, which the depth limit refuses.
    expect(api.requests.filter((request) => request.path === '/api/graphql')).toHaveLength(0);
    // Monaco does not run its editor in happy-dom, so running a query (with the session headers) is
    // checked in a real browser: e2e/tests/console/graphiql.spec.ts.
    expect(screen.getByRole('link', { name: 'GraphQL API' }).getAttribute('aria-current')).toBe('page');
    // GraphiQL loads Monaco by itself after its first render, and monaco-graphql then loads its language
    // mode (`initializeMode` registers `languages.graphql`, then imports graphqlMode.js). Those loads must
    // end inside the test, or they outlive the test environment (an unhandled error at teardown, seen on
    // a fresh clone whose first transforms are slow). Importing the same modules waits for the loads
    // under way; the mode's import is waited for once GraphiQL has started it.
    const [monaco] = await Promise.all([
      import('monaco-graphql/esm/monaco-editor.js'),
      import('monaco-graphql/esm/lite.js'),
    ]);
    await vi.waitFor(() => expect((monaco.languages as { graphql?: unknown }).graphql).toBeTruthy(), {
      timeout: 25_000,
    });
    await import('monaco-graphql/esm/graphqlMode.js');
    // GraphiQL and its editors are a large lazy chunk: their first transform in a run takes a while.
  }, 120_000);
});
