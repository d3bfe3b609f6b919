import type { Project } from '@polyflow/contracts/projects';
import type { SourcemapRelease } from '@polyflow/contracts/sourcemaps';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../lib/format';
import { buildProject, logIn } from '../../../testing/fixtures';
import { apiError, json, mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { FIRST_RELEASES } from './source-maps-card';

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** The SDK screen with the given releases with maps; DELETE removes one as the server would. */
function renderScreen(
  project: Project,
  initial: SourcemapRelease[],
  account = { bytes: 1.2 * GB, maxBytes: 5 * GB },
  list?: () => ReturnType<typeof json>,
) {
  logIn();
  const base = `/projects/${project.id}`;
  let releases = [...initial];
  const api = mockApi({
    'GET /projects': () => json(200, { projects: [project] }),
    [`GET ${base}/releases/sourcemaps`]:
      list ??
      (() =>
        json(200, {
          releases,
          account: {
            ...account,
            bytes:
              account.bytes - initial.filter((r) => !releases.includes(r)).reduce((s, r) => s + r.bytes, 0),
          },
        })),
    [`DELETE ${base}/releases/${encodeURIComponent('v1.0.0+build/7')}/sourcemaps`]: () => {
      releases = releases.filter((release) => release.release !== 'v1.0.0+build/7');
      return json(204);
    },
    [`DELETE ${base}/releases/1.1.0/sourcemaps`]: () => {
      releases = releases.filter((release) => release.release !== '1.1.0');
      return json(204);
    },
  });
  const rendered = renderApp(`/console/${project.id}/config`);
  const card = async () =>
    (await screen.findByRole('heading', { name: 'Source maps' })).closest('section') as HTMLElement;
  return { ...rendered, api, card };
}

const RELEASES: SourcemapRelease[] = [
  { release: '1.1.0', bytes: 3 * MB, files: 4, updatedAt: '2026-12-02T09:30:00.000Z' },
  { release: 'v1.0.0+build/7', bytes: 340 * 1024, files: 1, updatedAt: '2026-11-28T16:00:00.000Z' },
];

/** The SDK screen's Source maps card: releases with maps, the account's usage, deleting a release's maps. */
describe('the source maps card', () => {
  it('lists the releases with their files, size and upload date, and the usage against the limit', async () => {
    const { card } = renderScreen(buildProject(), RELEASES);
    const section = await card();
    const list = await within(section).findByRole('list', { name: 'Releases with source maps' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^1\.1\.04 files · 3 MB · uploaded 2 Dec 2026, 09:30:00 UTC/),
      expect.stringMatching(/^v1\.0\.0\+build\/71 file · 340 KB · uploaded 28 Nov 2026, 16:00:00 UTC/),
    ]);
    expect(section.textContent).toContain('1.2 GB of 5 GB used across your projects');
    // Below 90 % of the limit: no warning.
    expect(within(section).queryByText(/an upload that would pass/)).toBeNull();
  });

  it("deletes a release's maps after a confirm, refreshes the list and the usage, and moves focus", async () => {
    const { card, user, api } = renderScreen(buildProject(), RELEASES);
    const section = await card();
    const list = await within(section).findByRole('list', { name: 'Releases with source maps' });
    await user.click(within(list).getByRole('button', { name: 'Delete the source maps of 1.1.0' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete these source maps?' });
    expect(confirm.textContent).toContain('The 4 maps of release 1.1.0 (3 MB) are deleted from the server.');
    // Cancel keeps everything.
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.requests.some((request) => request.method === 'DELETE')).toBe(false);

    await user.click(within(list).getByRole('button', { name: 'Delete the source maps of 1.1.0' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete these source maps?' })).getByRole('button', {
        name: 'Delete source maps',
      }),
    );
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    // Focus goes to the Delete button of the release that took its place, and the change is announced.
    const next = within(list).getByRole('button', { name: 'Delete the source maps of v1.0.0+build/7' });
    await waitFor(() => expect(document.activeElement).toBe(next));
    await waitFor(() =>
      expect(screen.getByTestId('announcer').textContent).toBe('Source maps of release 1.1.0 deleted'),
    );
    expect(section.textContent).toContain(
      `${formatBytes(1.2 * GB - 3 * MB)} of 5 GB used across your projects`,
    );

    // The last one: the empty state, with the docs, takes focus.
    await user.click(next);
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete these source maps?' })).getByRole('button', {
        name: 'Delete source maps',
      }),
    );
    const empty = (
      await within(section).findByText(/No source maps yet\. Upload them from CI with a write token/)
    ).closest('p');
    await waitFor(() => expect(document.activeElement).toBe(empty));
    expect(within(section).getByRole('link', { name: 'source maps docs' }).getAttribute('href')).toBe(
      '/docs/source-maps.html',
    );
    expect(
      api.requests.filter((request) => request.method === 'DELETE').map((request) => request.path),
    ).toEqual([
      expect.stringMatching(/\/releases\/1\.1\.0\/sourcemaps$/),
      expect.stringMatching(/\/releases\/v1\.0\.0%2Bbuild%2F7\/sourcemaps$/),
    ]);
  });

  it('lists the 10 latest releases, then all of them on "Show all" with the focus on the 11th', async () => {
    const many: SourcemapRelease[] = Array.from({ length: 12 }, (_, index) => ({
      release: `1.0.${12 - index}`,
      bytes: MB,
      files: 2,
      updatedAt: new Date(Date.UTC(2026, 10, 30 - index)).toISOString(),
    }));
    const { card, user, unmount } = renderScreen(buildProject(), many);
    const section = await card();
    const list = await within(section).findByRole('list', { name: 'Releases with source maps' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(FIRST_RELEASES);
    expect(within(list).queryByText('1.0.2')).toBeNull();
    await user.click(within(section).getByRole('button', { name: 'Show all 12 releases' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(12);
    expect(within(section).queryByRole('button', { name: /^Show all/ })).toBeNull();
    const eleventh = within(list).getByRole('button', { name: 'Delete the source maps of 1.0.2' });
    await waitFor(() => expect(document.activeElement).toBe(eleventh));
    unmount();

    // A viewer's locked card lists them all: its disabled buttons are no Tab stops, and Show all could not be pressed.
    const viewer = renderScreen(buildProject({ role: 'viewer' }), many);
    const viewerList = await within(await viewer.card()).findByRole('list', {
      name: 'Releases with source maps',
    });
    expect(within(viewerList).getAllByRole('listitem')).toHaveLength(12);
  });

  it('shows a viewer the releases with every Delete button disabled, and the reason', async () => {
    const { card } = renderScreen(buildProject({ role: 'viewer' }), RELEASES);
    const section = await card();
    const list = await within(section).findByRole('list', { name: 'Releases with source maps' });
    // Inside the SDK screen's disabled fieldset (Locked): the browser disables every button in it.
    expect(within(list).getAllByRole('button')).toHaveLength(2);
    for (const button of within(list).getAllByRole('button')) {
      expect(button.closest('fieldset')?.disabled).toBe(true);
    }
    expect(section.closest('fieldset')?.getAttribute('title')).toMatch(/^Viewers cannot change this project/);
    expect(section.textContent).toContain("used across the projects of this project's owner");
  });

  it('says what to do near the limit, and shows a loading failure', async () => {
    const near = renderScreen(buildProject(), RELEASES, { bytes: 4.8 * GB, maxBytes: 5 * GB });
    const section = await near.card();
    expect(
      await within(section).findByText(/Near the limit: an upload that would pass 5 GB is refused/),
    ).toBeTruthy();
    near.unmount();

    const failing = renderScreen(buildProject(), [], undefined, () =>
      apiError(500, 'INTERNAL_ERROR', 'The server failed.'),
    );
    const failed = await failing.card();
    expect(
      await within(failed).findByText('Could not load the source maps: The server failed.', { exact: false }),
    ).toBeTruthy();
  });

  it('says "is deleted" of a release with one map, and "over the limit" past it (after a transfer)', async () => {
    const over = renderScreen(buildProject(), RELEASES, { bytes: 5.5 * GB, maxBytes: 5 * GB });
    const section = await over.card();
    expect(
      await within(section).findByText(
        /^Over the limit: every upload is refused until less than 5 GB is used\. Delete the maps of releases/,
      ),
    ).toBeTruthy();
    const list = await within(section).findByRole('list', { name: 'Releases with source maps' });
    await over.user.click(
      within(list).getByRole('button', { name: 'Delete the source maps of v1.0.0+build/7' }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Delete these source maps?' });
    expect(confirm.textContent).toContain(
      'The 1 map of release v1.0.0+build/7 (340 KB) is deleted from the server.',
    );
  });

  it('names a blank, space-padded or direction-flipped release so each Delete button says which it is', async () => {
    const odd = ['\u200b', ' ', '1.0 ', '\u202egnp.1', '1.0'].map((release) => ({ ...RELEASES[1], release }));
    const { card } = renderScreen(buildProject(), odd as SourcemapRelease[]);
    const section = await card();
    const list = await within(section).findByRole('list', { name: 'Releases with source maps' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual([
      'Delete the source maps of "\\u200b"',
      'Delete the source maps of " "',
      'Delete the source maps of "1.0 "',
      'Delete the source maps of "\\u202egnp.1"',
      'Delete the source maps of 1.0',
    ]);
    expect(within(list).getAllByRole('listitem')[0]?.textContent).toMatch(/^"\\u200b"1 file/);
  });

  it('formats sizes as the server says them', () => {
    expect([0, 1, 340 * 1024, 3 * MB, 1.2 * GB, 5 * GB].map(formatBytes)).toEqual([
      '0 B',
      '1 B',
      '340 KB',
      '3 MB',
      '1.2 GB',
      '5 GB',
    ]);
  });
});
