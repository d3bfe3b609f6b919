import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CURRENT_PROJECT_KEY, LAST_PROJECTS_KEY, USER_KEY } from '../../lib/storage';
import { buildProject, logIn } from '../../testing/fixtures';
import { apiError, json, mockApi } from '../../testing/mock-api';
import { renderApp } from '../../testing/render-app';

const storedProject = () => JSON.parse(window.localStorage.getItem(CURRENT_PROJECT_KEY) ?? 'null');

// The first test of a file also loads the lazy screens; a busy machine needs more than the default 5 s.
describe('Console guard', { timeout: 15_000 }, () => {
  it('sends a visitor without a session to the root route, with the page asked for to come back to', async () => {
    mockApi({});
    const { location } = renderApp('/console/some-project/config?tab=tokens');
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeTruthy();
    expect(location()).toBe('/?next=%2Fconsole%2Fsome-project%2Fconfig%3Ftab%3Dtokens');
  });

  it('treats an expired session as no session', async () => {
    logIn({ validUntil: new Date(Date.now() - 1000).toISOString() });
    const api = mockApi({});
    const { location } = renderApp('/console/analytics');
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeTruthy();
    expect(location()).toBe('/');
    expect(api.requests).toHaveLength(0);
  });

  it('ends the session when the server answers 401', async () => {
    logIn();
    mockApi({ 'GET /projects': apiError(401, 'BAD_AUTHENTICATION', 'Session expired.') });
    const { location } = renderApp('/console/analytics');
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeTruthy();
    expect(location()).toBe('/');
    expect(window.localStorage.getItem(USER_KEY)).toBeNull();
  });
});

describe('Project switcher', { timeout: 15_000 }, () => {
  it('opens by itself without a current project, cannot be dismissed, and creates the first project', async () => {
    logIn();
    const created = buildProject({ name: 'Uniswap clone' });
    const api = mockApi({
      'GET /projects': json(200, { projects: [] }),
      'POST /projects': json(201, created),
    });
    const { user, location } = renderApp('/console/analytics');

    const dialog = await screen.findByRole('dialog', { name: 'My Projects' });
    expect(
      within(dialog).getByText(
        "You don't have any projects. Create a project by clicking the button below to get started.",
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Close dialog' })).toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'My Projects' })).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Create a new project' }));
    const create = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Create' });
    expect(create.disabled).toBe(true);
    await user.type(within(dialog).getByLabelText('Project name'), '   ');
    expect(create.disabled).toBe(true);
    await user.clear(within(dialog).getByLabelText('Project name'));
    await user.type(within(dialog).getByLabelText('Project name'), 'Uniswap clone{Enter}');

    await waitFor(() => expect(location()).toBe(`/console/${created.id}/analytics`));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls('POST /projects')[0]?.body).toEqual({ name: 'Uniswap clone' });
    expect(storedProject()).toEqual(created);
    expect(await screen.findByRole('heading', { name: 'Overview' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Switch project \(current: Uniswap clone\)/ })).toBeTruthy();
  });

  it('lists projects with Open, makes the chosen one current, and toggles from the navbar', async () => {
    logIn();
    const first = buildProject({ name: 'First' });
    const second = buildProject({ name: 'Second' });
    mockApi({ 'GET /projects': json(200, { projects: [first, second] }) });
    const { user, location } = renderApp(`/console/${first.id}/config`);

    expect(await screen.findByRole('heading', { name: 'API Key' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(storedProject()).toEqual(first);

    await user.click(screen.getByRole('button', { name: /Switch project/ }));
    const dialog = await screen.findByRole('dialog', { name: 'My Projects' });
    await user.click(within(dialog).getByRole('button', { name: 'Open Second' }));

    // The same screen, on the other project.
    await waitFor(() => expect(location()).toBe(`/console/${second.id}/config`));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(storedProject()).toEqual(second);

    await user.click(screen.getByRole('button', { name: /Switch project/ }));
    await screen.findByRole('dialog', { name: 'My Projects' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps focus in the dialog between its list and its form, so that Escape still closes it', async () => {
    logIn();
    const project = buildProject({ name: 'First' });
    mockApi({ 'GET /projects': json(200, { projects: [project] }) });
    const { user } = renderApp(`/console/${project.id}/config`);

    (await screen.findByRole('button', { name: /Switch project/ })).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'My Projects' });
    within(dialog).getByRole('button', { name: 'Create a new project' }).focus();
    await user.keyboard('{Enter}');
    // The pressed button went with the list: focus is on the form's first field, not the page's body.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText('Project name')));

    within(dialog).getByRole('button', { name: 'Cancel' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(dialog).getByRole('button', { name: 'Create a new project' }),
      ),
    );

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /Switch project/ }));
  });

  it('keeps the screen and its filters when opening or creating another project', async () => {
    logIn();
    const first = buildProject({ name: 'First' });
    const second = buildProject({ name: 'Second' });
    const created = buildProject({ name: 'Third' });
    mockApi({
      'GET /projects': json(200, { projects: [first, second] }),
      'POST /projects': json(201, created),
    });
    const { user, location } = renderApp(`/console/${first.id}/errorlogs/inc_1?period=30d&q=TypeError`);

    await user.click(await screen.findByRole('button', { name: /Switch project/ }));
    let dialog = await screen.findByRole('dialog', { name: 'My Projects' });
    await user.click(within(dialog).getByRole('button', { name: 'Open Second' }));
    // An incident belongs to one project: its list, with the same period and search.
    await waitFor(() => expect(location()).toBe(`/console/${second.id}/errorlogs?period=30d&q=TypeError`));

    await user.click(screen.getByRole('button', { name: /Switch project/ }));
    dialog = await screen.findByRole('dialog', { name: 'My Projects' });
    await user.click(within(dialog).getByRole('button', { name: 'Create a new project' }));
    await user.type(within(dialog).getByLabelText('Project name'), 'Third{Enter}');
    await waitFor(() => expect(location()).toBe(`/console/${created.id}/errorlogs?period=30d&q=TypeError`));
  });

  it('keeps every screen of the sidebar when opening another project, Funnels and Alerts included', async () => {
    logIn();
    const first = buildProject({ name: 'First' });
    const second = buildProject({ name: 'Second' });
    mockApi({ 'GET /projects': json(200, { projects: [first, second] }) });
    const { user, location } = renderApp(`/console/${first.id}/funnels`);
    await user.click(await screen.findByRole('button', { name: /Switch project/ }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'My Projects' })).getByRole('button', {
        name: 'Open Second',
      }),
    );
    await waitFor(() => expect(location()).toBe(`/console/${second.id}/funnels`));
  });

  it('says when the project in the URL is not one of the user’s, and offers the switcher', async () => {
    logIn();
    const mine = buildProject({ name: 'Mine' });
    window.localStorage.setItem(CURRENT_PROJECT_KEY, JSON.stringify(mine));
    mockApi({ 'GET /projects': json(200, { projects: [mine] }) });
    const { user, location } = renderApp('/console/someone-elses-project/acquisition?country=JP');

    // The page's one h1, as every screen has (WCAG 1.3.1, 2.4.6).
    expect(await screen.findByRole('heading', { level: 1, name: 'Project not found' })).toBeTruthy();
    expect(screen.getByText('someone-elses-project')).toBeTruthy();
    // Not silently another project.
    expect(location()).toBe('/console/someone-elses-project/acquisition?country=JP');
    expect(screen.queryByRole('heading', { name: 'User Acquisition' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Choose one of your projects' }));
    const dialog = await screen.findByRole('dialog', { name: 'My Projects' });
    await user.click(within(dialog).getByRole('button', { name: 'Open Mine' }));
    await waitFor(() => expect(location()).toBe(`/console/${mine.id}/acquisition?country=JP`));
  });

  it('reopens the stored current project when the URL has none', async () => {
    logIn();
    const project = buildProject({ name: 'Stored' });
    window.localStorage.setItem(CURRENT_PROJECT_KEY, JSON.stringify(project));
    mockApi({ 'GET /projects': json(200, { projects: [project] }) });
    const { location } = renderApp('/console/config');

    expect(await screen.findByRole('heading', { name: 'API Key' })).toBeTruthy();
    expect(location()).toBe(`/console/${project.id}/config`);
  });
});

describe('After a login (no current project)', () => {
  it('opens the only project without asking', async () => {
    logIn();
    const only = buildProject({ name: 'Only' });
    mockApi({ 'GET /projects': json(200, { projects: [only] }) });
    const { location } = renderApp('/console/analytics');

    await waitFor(() => expect(location()).toBe(`/console/${only.id}/analytics`));
    expect(screen.queryByRole('dialog', { name: 'My Projects' })).toBeNull();
    // Stored by an effect once the project's screen renders, which may come a moment after the URL.
    await waitFor(() => expect(storedProject()).toEqual(only));
  });

  it('reopens the project this account opened last, and asks another account', async () => {
    logIn({ email: 'ada@example.com' });
    const first = buildProject({ name: 'First' });
    const second = buildProject({ name: 'Second' });
    mockApi({ 'GET /projects': json(200, { projects: [first, second] }) });
    const opened = renderApp(`/console/${second.id}/config`);
    expect(await screen.findByRole('heading', { name: 'API Key' })).toBeTruthy();
    opened.unmount();
    // The login form clears the current project (spec §4); the last one opened is remembered apart.
    window.localStorage.removeItem(CURRENT_PROJECT_KEY);

    const again = renderApp('/console/analytics');
    await waitFor(() => expect(again.location()).toBe(`/console/${second.id}/analytics`));
    expect(screen.queryByRole('dialog', { name: 'My Projects' })).toBeNull();
    again.unmount();

    window.localStorage.removeItem(CURRENT_PROJECT_KEY);
    logIn({ email: 'grace@example.com' });
    renderApp('/console/analytics');
    expect(await screen.findByRole('dialog', { name: 'My Projects' })).toBeTruthy();
    // Behind the dialog, the page says what it waits for in its h1.
    expect(screen.getByRole('heading', { level: 1, name: 'Choose a project', hidden: true })).toBeTruthy();
  });
});

describe('Shell', () => {
  it('shows the email and project, the sidebar links, and logs out', async () => {
    logIn({ email: 'ada@example.com' });
    const project = buildProject({ name: 'Shop' });
    const noIncidents = {
      from: '2025-05-26T00:00:00.000Z',
      to: '2025-06-02T00:00:00.000Z',
      totalIncidents: 0,
      byStatus: { open: 0, resolved: 0, ignored: 0 },
      transactionFailRate: null,
      bySeverity: { low: 0, mid: 0, high: 0, severe: 0 },
      matching: 0,
      rows: [],
      nextCursor: null,
    };
    const api = mockApi({
      'GET /projects': json(200, { projects: [project] }),
      // The incident list with no incident yet points to the SDK settings.
      'POST /api/graphql': json(200, { data: { incidents: noIncidents } }),
      'POST /logout': json(204),
    });
    const { user, location } = renderApp(`/console/${project.id}`);

    expect(await screen.findByRole('heading', { name: 'Overview' })).toBeTruthy();
    expect(screen.getByText('ada@example.com')).toBeTruthy();
    const sidebar = screen.getByRole('navigation', { name: 'Console' });
    // The index route is Analytics: highlighted, and the current page for a screen reader too.
    expect(within(sidebar).getByRole('link', { name: 'Analytics' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await waitFor(() => expect(document.title).toBe('Analytics · Shop · Polyflow'));
    const hrefs = within(sidebar)
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]);
    expect(hrefs).toEqual([
      ['Analytics', `/console/${project.id}/analytics`],
      ['Live', `/console/${project.id}/live`],
      ['Wallets', `/console/${project.id}/wallets`],
      ['Events', `/console/${project.id}/events`],
      ['Funnels', `/console/${project.id}/funnels`],
      ['User Acquisition', `/console/${project.id}/acquisition`],
      ['Incident Tracking', `/console/${project.id}/errorlogs`],
      ['Alerts', `/console/${project.id}/alerts`],
      ['SDK', `/console/${project.id}/config`],
      ['Members', `/console/${project.id}/members`],
      ['Audit log', `/console/${project.id}/audit-log`],
      ['Components', `/console/${project.id}/uicomponents`],
      ['GraphQL API', `/console/${project.id}/graphiql`],
    ]);
    expect(screen.getByRole('link', { name: 'Read the Docs' }).getAttribute('href')).toBe('/docs/');
    expect(screen.queryByText('In order to use Polyflow, you must verify your email!')).toBeNull();

    await user.click(within(sidebar).getByRole('link', { name: 'Incident Tracking' }));
    expect(await screen.findByRole('heading', { name: 'Incidents' })).toBeTruthy();
    expect(
      within(sidebar).getByRole('link', { name: 'Incident Tracking' }).getAttribute('aria-current'),
    ).toBe('page');
    expect(within(sidebar).getByRole('link', { name: 'Analytics' }).getAttribute('aria-current')).toBeNull();
    await waitFor(() => expect(document.title).toBe('Incident Tracking · Shop · Polyflow'));
    expect((await screen.findByRole('link', { name: 'SDK settings' })).getAttribute('href')).toBe(
      `/console/${project.id}/config`,
    );

    expect(window.localStorage.getItem(LAST_PROJECTS_KEY)).toContain('ada@example.com');
    window.localStorage.setItem('graphiql:query', `{ totalConnectedWallets(projectId: "${project.id}") }`);
    window.localStorage.setItem('unrelated', 'kept');
    const token = JSON.parse(window.localStorage.getItem(USER_KEY) ?? '{}').token;
    await user.click(screen.getByRole('button', { name: 'Log Out' }));
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeTruthy();
    expect(location()).toBe('/');
    expect(window.localStorage.getItem(USER_KEY)).toBeNull();
    // The session ends on the server too, with the token it had.
    await waitFor(() => expect(api.calls('POST /logout')).toHaveLength(1));
    expect(api.calls('POST /logout')[0]?.headers.get('authorization')).toBe(`Bearer ${token}`);
    expect(window.localStorage.getItem(CURRENT_PROJECT_KEY)).toBeNull();
    // Nothing of the user's stays on a shared browser: the last project by email, GraphiQL's queries.
    expect(window.localStorage.getItem(LAST_PROJECTS_KEY)).toBeNull();
    expect(window.localStorage.getItem('graphiql:query')).toBeNull();
    expect(window.localStorage.getItem('unrelated')).toBe('kept');
  });

  it("names each screen in the page's title and, after a link in the page, focuses the new screen's heading", async () => {
    logIn();
    const project = buildProject({ name: 'Shop' });
    const noIncidents = {
      from: '2025-05-26T00:00:00.000Z',
      to: '2025-06-02T00:00:00.000Z',
      totalIncidents: 0,
      byStatus: { open: 0, resolved: 0, ignored: 0 },
      transactionFailRate: null,
      bySeverity: { low: 0, mid: 0, high: 0, severe: 0 },
      matching: 0,
      rows: [],
      nextCursor: null,
    };
    mockApi({
      'GET /projects': json(200, { projects: [project] }),
      'POST /api/graphql': json(200, { data: { incidents: noIncidents } }),
      'POST /logout': json(204),
    });
    const { user, location } = renderApp(`/console/${project.id}/errorlogs`);

    expect(await screen.findByRole('heading', { name: 'Incident Tracking', level: 1 })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Incident Tracking · Shop · Polyflow'));
    // Not on the first load: a person starts at the top of the page.
    expect(document.activeElement).toBe(document.body);

    // A link inside the screen: it goes away with the screen, and focus goes to the new one's heading.
    (await screen.findByRole('link', { name: 'SDK settings' })).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location()).toBe(`/console/${project.id}/config`));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'SDK', level: 1 })),
    );
    await waitFor(() => expect(document.title).toBe('SDK · Shop · Polyflow'));

    // A sidebar link keeps focus: it says which page is current.
    const sidebar = screen.getByRole('navigation', { name: 'Console' });
    const components = within(sidebar).getByRole('link', { name: 'Components' });
    components.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Components', level: 1 })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Components · Shop · Polyflow'));
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(document.activeElement).toBe(components);

    screen.getByRole('button', { name: 'Log Out' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Log In' })));
    await waitFor(() => expect(document.title).toBe('Log In · Polyflow'));
  });

  it('opens the upsell modal from the promo strip and closes it with Escape', async () => {
    logIn({ verified: false });
    const project = buildProject();
    mockApi({ 'GET /projects': json(200, { projects: [project] }) });
    const { user } = renderApp(`/console/${project.id}/uicomponents`);

    expect(await screen.findByRole('heading', { name: 'Gas Station' })).toBeTruthy();
    expect(screen.getByText('In order to use Polyflow, you must verify your email!')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /50% lifetime discount/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Hello Friend!' });
    expect(within(dialog).getByRole('button', { name: 'Buy Subscription & Claim discount' })).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
