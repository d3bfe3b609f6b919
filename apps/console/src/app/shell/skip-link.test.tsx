import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildProject, logIn } from '../../testing/fixtures';
import { json, mockApi } from '../../testing/mock-api';
import { renderApp } from '../../testing/render-app';

// The first test of a file also loads the lazy screens; a busy machine needs more than the default 5 s.
describe('Skip link', { timeout: 15_000 }, () => {
  it("is the console's first Tab stop and moves focus past the banner, navbar and sidebar to the screen's heading", async () => {
    logIn();
    const project = buildProject({ name: 'Shop' });
    mockApi({ 'GET /projects': json(200, { projects: [project] }) });
    const { user, location } = renderApp(`/console/${project.id}/uicomponents`);
    const heading = await screen.findByRole('heading', { level: 1, name: 'Components' });

    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(document.activeElement).toBe(skip);
    await user.keyboard('{Enter}');

    expect(document.activeElement).toBe(heading);
    expect(heading.closest('main')).toBeTruthy();
    // Focus moved by hand: the URL keeps no fragment for links and filters to copy.
    expect(location()).toBe(`/console/${project.id}/uicomponents`);
    // The next Tab goes on inside the screen, not back to the banner.
    await user.tab();
    expect(document.activeElement?.closest('main')).toBeTruthy();
  });

  it('says that a screen is loading: the wait for the projects is a status message', async () => {
    logIn();
    // Answered late, so that the wait shows; the answer ends the test's requests.
    mockApi({
      'GET /projects': () =>
        new Promise((resolve) => setTimeout(() => resolve(json(200, { projects: [] })), 1_500)),
    });
    renderApp('/console/analytics');
    const loading = await screen.findByText('Loading your projects…', { exact: false });
    expect(loading.closest('[role="status"]')).toBeTruthy();
  });
});
