import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildProject, logIn } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render-app';
import { type Answer, data, serveGraphql } from '../../../testing/serve-graphql';
import { buildIncidentList, buildIncidentRow, buildMappedIncidentDetail } from '../testing/builders';

function setUp(path: string, answers: Record<string, Answer>) {
  logIn();
  const project = buildProject();
  const api = serveGraphql([project], answers);
  const view = renderApp(`/console/${project.id}/${path}`);
  return { ...view, api, project };
}

describe('Releases and source maps', { timeout: 15_000 }, () => {
  it('shows the mapped stack with its source as text, the minified frame one click away', async () => {
    const { user } = setUp('errorlogs/inc_b41d02', {
      incident: () => data({ incident: buildMappedIncidentDetail() }),
    });
    const frames = await screen.findAllByTestId('stack-frame');
    expect(frames).toHaveLength(2);
    const [top, vendor] = frames as [HTMLElement, HTMLElement];
    expect(within(top).getByText('loadBalance')).toBeTruthy();
    expect(within(top).getByText('src/wallet/balance.ts:12:11')).toBeTruthy();
    // sourcesContent is text: the markup in it is shown, never made into elements.
    expect(within(top).getByText('// <img src=x onerror=alert(1)> stays text')).toBeTruthy();
    expect(document.querySelector('img[src="x"]')).toBeNull();
    const current = top.querySelector('[aria-current="true"]');
    expect(current?.textContent).toContain('return account.balance.toString();');
    // The minified frame: folded until asked for.
    const minified = within(top).getByText('at r (https://shop.example/assets/index-B8dJ0v3k.js:1:48)');
    expect(minified.closest('details')?.open).toBe(false);
    await user.click(within(top).getByText('Minified frame'));
    expect(minified.closest('details')?.open).toBe(true);
    // A frame no map covers stays as the browser wrote it.
    expect(within(vendor).getByText('at t (https://cdn.example/vendor.js:3:900)')).toBeTruthy();
    expect(within(vendor).getByText('Not mapped.')).toBeTruthy();
    // The release of the occurrence and the incident's first and last.
    expect(screen.getByText('Release').nextElementSibling?.textContent).toBe('1.4.2');
    expect(screen.getByText('1.4.1 → 1.4.2')).toBeTruthy();
  });

  it('resolves in next release from the detail', async () => {
    const { api, user } = setUp('errorlogs/inc_b41d02', {
      incident: () => data({ incident: buildMappedIncidentDetail() }),
      setIncidentStatus: () =>
        data({
          setIncidentStatus: {
            ...buildIncidentRow({ id: 'inc_b41d02', status: 'resolved' }),
            resolvedInNextRelease: true,
            resolvedInRelease: '1.4.2',
          },
        }),
    });
    await user.click(await screen.findByRole('button', { name: 'Resolve in next release' }));
    await waitFor(() =>
      expect(api.lastCallOf('setIncidentStatus')?.variables).toMatchObject({
        id: 'inc_b41d02',
        status: 'resolved',
        inNextRelease: true,
      }),
    );
  });

  it('filters the list by release, kept in the URL', async () => {
    const { api, user, location } = setUp('errorlogs', {
      incidents: (variables) =>
        data({
          incidents: variables.release
            ? buildIncidentList({
                rows: [buildIncidentRow({ firstRelease: '1.4.2', lastRelease: '1.4.2' })],
                matching: 1,
              })
            : buildIncidentList(),
        }),
    });
    await waitFor(() => expect(api.lastCallOf('incidents')?.variables.release).toBeNull());
    await user.type(await screen.findByRole('textbox', { name: 'Release' }), '1.4.2{Enter}');
    await waitFor(() => expect(api.lastCallOf('incidents')?.variables.release).toBe('1.4.2'));
    expect(location()).toContain('release=1.4.2');
    await user.click(screen.getByRole('button', { name: 'Clear the release filter' }));
    await waitFor(() => expect(api.lastCallOf('incidents')?.variables.release).toBeNull());
  });
});
