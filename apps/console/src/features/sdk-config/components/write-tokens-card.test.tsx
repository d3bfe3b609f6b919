import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildProject, logIn } from '../../../testing/fixtures';
import { json, mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

/** The SDK screen's write tokens (source-map uploads from CI): shown once, listed, revoked after a confirm. */
describe('write tokens', () => {
  it('creates a write token shown once, lists it, and revokes it after a confirm', async () => {
    logIn();
    const project = buildProject({ name: 'Shop' });
    const base = `/projects/${project.id}`;
    let tokens: { id: string; name: string; createdAt: string }[] = [];
    const api = mockApi({
      'GET /projects': () => json(200, { projects: [project] }),
      [`GET ${base}/integration`]: json(200, {
        hasApiKey: false,
        whitelistedDomains: [],
        eventsSince: 0,
        lastEvent: null,
        origins: [],
      }),
      [`GET ${base}/read-tokens`]: json(200, { readTokens: [] }),
      [`GET ${base}/write-tokens`]: () => json(200, { writeTokens: tokens }),
      [`POST ${base}/write-tokens`]: ({ body }) => {
        const token = {
          id: 'wt-1',
          name: (body as { name: string }).name,
          createdAt: '2025-02-03T04:05:06.000Z',
        };
        tokens = [token];
        return json(201, { ...token, token: `pfw_${'A'.repeat(40)}` });
      },
      [`DELETE ${base}/write-tokens/wt-1`]: () => {
        tokens = [];
        return json(204);
      },
    });
    const { user } = renderApp(`/console/${project.id}/config`);
    const card = (await screen.findByRole('heading', { name: 'Write tokens' })).closest(
      'section',
    ) as HTMLElement;
    expect(await within(card).findByText('No write tokens yet.')).toBeTruthy();

    await user.type(within(card).getByLabelText('Write token name'), 'GitHub Actions');
    await user.click(within(card).getByRole('button', { name: 'Create write token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Copy your write token' });
    expect((within(dialog).getByLabelText('Write token GitHub Actions') as HTMLInputElement).value).toBe(
      `pfw_${'A'.repeat(40)}`,
    );
    expect(within(dialog).getByText(/only time the token is shown/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));

    const list = await within(card).findByRole('list', { name: 'Write tokens' });
    await user.click(within(list).getByRole('button', { name: 'Revoke GitHub Actions' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke this write token?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke token' }));
    expect(await within(card).findByText('No write tokens yet.')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'DELETE' && r.path.endsWith('/write-tokens/wt-1'))).toBe(
      true,
    );
  });
});
