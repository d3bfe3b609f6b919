import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildProject, logIn } from '../../testing/fixtures';
import { json, mockApi } from '../../testing/mock-api';
import { renderApp } from '../../testing/render-app';

describe('GraphiQL route', () => {
  it('sends a visitor without a session to the login screen, which opens the editor after the login', async () => {
    const api = mockApi({});
    const { location } = renderApp('/console/some-project/graphiql');
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeTruthy();
    expect(location()).toBe('/?next=%2Fconsole%2Fsome-project%2Fgraphiql');
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
    expect(screen.getByRole('region', { name: 'Query Editor' })).toBeTruthy();
    // The schema is the published one, bundled: no introspection query, which the depth limit refuses.
    expect(api.requests.filter((request) => request.path === '/api/graphql')).toHaveLength(0);
    // Running a query (with the session headers) is checked in a real browser:
    // e2e/tests/console/graphiql.spec.ts.
    expect(screen.getByRole('link', { name: 'GraphQL API' }).getAttribute('aria-current')).toBe('page');
    // The starter query names this project; GraphiQL's CodeMirror editor holds it.
    await vi.waitFor(
      () => {
        const editor = document.querySelector('.graphiql-query-editor .CodeMirror') as
          | (Element & { CodeMirror?: { getValue(): string } })
          | null;
        expect(editor?.CodeMirror?.getValue()).toContain(`projectId: "${project.id}"`);
      },
      { timeout: 25_000 },
    );
    // Each of CodeMirror's text fields is named after its editor, for a screen reader (axe: label).
    await vi.waitFor(() =>
      expect(
        [...document.querySelectorAll('.polyflow-graphiql textarea')].map((field) =>
          field.getAttribute('aria-label'),
        ),
      ).toEqual(['Query Editor', 'Variables', 'Headers', 'Result Window']),
    );
    // Tab indents in an editor; Escape then Tab leaves it (WCAG 2.1.2), as the hint beside it says.
    const queryField = screen.getByRole('textbox', { name: 'Query Editor' });
    const hint = document.getElementById(queryField.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toBe('Tab indents in the editors. Press Esc, then Tab, to leave the editor.');
    const queryEditor = document.querySelector('.graphiql-query-editor .CodeMirror') as Element & {
      CodeMirror: { getValue(): string };
    };
    // CodeMirror 5 reads `keyCode`, which user-event leaves at 0 here. A key event that nothing prevented is
    // one the browser acts on: Tab then moves focus (checked in a browser too).
    const KEY_CODES: Record<string, number> = { Tab: 9, Escape: 27, ArrowDown: 40 };
    const press = (key: string, init: KeyboardEventInit = {}) =>
      fireEvent.keyDown(queryField, { key, code: key, keyCode: KEY_CODES[key], ...init });
    queryField.focus();
    expect(press('Tab')).toBe(false);
    expect(queryEditor.CodeMirror.getValue()).toMatch(/^\s+# Polyflow's GraphQL API/);
    press('Escape');
    expect(press('Tab')).toBe(true);
    // Once only, and a key in between (typing after Escape) ends it: Tab indents again.
    expect(press('Tab')).toBe(false);
    press('Escape');
    press('ArrowDown');
    expect(press('Tab')).toBe(false);
    press('Escape');
    expect(press('Tab', { shiftKey: true })).toBe(true);

    // GraphiQL saves an edited query after debounces of 100 ms (the editor's change) then 500 ms (its tabs):
    // they run before the test ends, not after the file's environment is gone (a "window is not defined" that
    // failed npm test with every test green). A later timer fires after them, whatever the load.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }, 120_000);
});
