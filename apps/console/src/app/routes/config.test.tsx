import type { Project } from '@polyflow/contracts/projects';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CURRENT_PROJECT_KEY } from '../../lib/storage';
import { catchCsvDownloads } from '../../testing/csv-downloads';
import { buildProject, logIn } from '../../testing/fixtures';
import { apiError, json, mockApi, type Reply } from '../../testing/mock-api';
import { renderApp } from '../../testing/render-app';

const noEvents = { hasApiKey: false, whitelistedDomains: [], eventsSince: 0, lastEvent: null, origins: [] };

/** A small stand-in for the server's project routes, keeping one project's state between calls. */
function serveProject(
  initial: Partial<Project> = {},
  overrides: (base: string) => Record<string, Reply> = () => ({}),
) {
  let project = buildProject({ name: 'Shop', ...initial });
  let isDeleted = false;
  let keys = 0;
  let readTokens: { id: string; name: string; createdAt: string }[] = [];
  const update = (changes: Partial<Project>) => {
    project = { ...project, ...changes };
    return json(200, project);
  };
  const base = `/projects/${project.id}`;
  const api = mockApi({
    'GET /projects': () => json(200, { projects: isDeleted ? [] : [project] }),
    [`GET ${base}/integration`]: json(200, noEvents),
    [`POST ${base}/api-key`]: () => update({ apiKey: `pk_live_${++keys}` }),
    [`DELETE ${base}/api-key`]: () => update({ apiKey: null }),
    [`PATCH ${base}/domains/add`]: ({ body }) =>
      update({ whitelistedDomains: [...project.whitelistedDomains, (body as { domain: string }).domain] }),
    [`PATCH ${base}/domains/delete`]: ({ body }) =>
      update({
        whitelistedDomains: project.whitelistedDomains.filter(
          (d) => d !== (body as { domain: string }).domain,
        ),
      }),
    [`PATCH ${base}`]: ({ body }) =>
      update({ retentionDays: (body as { retentionDays: number | null }).retentionDays }),
    [`PUT ${base}/ignored-wallet-codes`]: ({ body }) =>
      update({ ignoredWalletCodes: [...(body as { codes: number[] }).codes].sort((a, b) => a - b) }),
    [`GET ${base}/read-tokens`]: () => json(200, { readTokens }),
    [`POST ${base}/read-tokens`]: ({ body }) => {
      const token = {
        id: `token-${readTokens.length + 1}`,
        name: (body as { name: string }).name,
        createdAt: '2025-02-03T04:05:06.000Z',
      };
      readTokens = [...readTokens, token];
      return json(201, { ...token, token: `pfr_secret${readTokens.length}` });
    },
    [`DELETE ${base}/read-tokens/token-1`]: () => {
      readTokens = readTokens.filter((token) => token.id !== 'token-1');
      return json(204);
    },
    [`DELETE ${base}`]: () => {
      isDeleted = true;
      return json(204);
    },
    ...overrides(base),
  });
  return {
    api,
    base,
    get project() {
      return project;
    },
  };
}

/** What the console's one live region (lib/announce.ts) says last. */
const announced = () => screen.queryByTestId('announcer')?.textContent;

const storedProject = (): Project | null =>
  JSON.parse(window.localStorage.getItem(CURRENT_PROJECT_KEY) ?? 'null');

describe('API key', () => {
  it('creates, replaces and revokes the key, refreshing the current project each time', {
    timeout: 30_000,
  }, async () => {
    logIn();
    const server = serveProject();
    const { user } = renderApp(`/console/${server.project.id}/config`);

    const create = await screen.findByRole('button', { name: 'Create' });
    expect(screen.queryByRole('button', { name: 'Revoke' })).toBeNull();
    expect(screen.queryByLabelText('API key')).toBeNull();
    await user.click(create);

    const key = await screen.findByLabelText<HTMLInputElement>('API key');
    expect(key.value).toBe('pk_live_1');
    expect(storedProject()?.apiKey).toBe('pk_live_1');
    expect(screen.getByText(/data-api-key="pk_live_1"/)).toBeTruthy();

    // Replace asks first, saying that the old key stops working; Cancel keeps it.
    await user.click(screen.getByRole('button', { name: 'Replace' }));
    let confirm = await screen.findByRole('dialog', { name: 'Replace the API key?' });
    expect(confirm.textContent).toContain('the current one is refused at once');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.api.calls(`POST ${server.base}/api-key`)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Replace' }));
    confirm = await screen.findByRole('dialog', { name: 'Replace the API key?' });
    await user.click(within(confirm).getByRole('button', { name: 'Replace key' }));
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('API key').value).toBe('pk_live_2'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(announced()).toBe('API key replaced'));
    expect(storedProject()?.apiKey).toBe('pk_live_2');

    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    confirm = await screen.findByRole('dialog', { name: 'Revoke the API key?' });
    expect(confirm.textContent).toContain('Polyflow stops receiving events');
    expect(server.api.calls(`DELETE ${server.base}/api-key`)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Revoke key' }));
    const createAgain = await screen.findByRole('button', { name: 'Create' });
    // Revoke went with the key: focus goes to Create, not to the page's body.
    await waitFor(() => expect(document.activeElement).toBe(createAgain));
    await waitFor(() => expect(announced()).toBe('API key revoked'));
    expect(screen.queryByLabelText('API key')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Revoke' })).toBeNull();
    expect(storedProject()?.apiKey).toBeNull();
    expect(server.api.calls(`POST ${server.base}/api-key`)).toHaveLength(2);
    expect(server.api.calls(`DELETE ${server.base}/api-key`)).toHaveLength(1);
  });

  it('shows a failure in the generic Error modal', async () => {
    logIn();
    const server = serveProject({}, (base) => ({
      [`POST ${base}/api-key`]: apiError(429, 'RATE_LIMITED', 'Slow down a little.'),
    }));
    const { user } = renderApp(`/console/${server.project.id}/config`);
    await user.click(await screen.findByRole('button', { name: 'Create' }));

    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByText('Slow down a little.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('copies the key and shows the check icon for 500 ms', async () => {
    logIn();
    const server = serveProject({ apiKey: 'pk_live_copy' });
    renderApp(`/console/${server.project.id}/config`);
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });

    const copy = await screen.findByRole('button', { name: 'Copy API key' });
    expect(within(copy).queryByTestId('copied-icon')).toBeNull();
    // From here on the confirmation timer moves only when the test says so. React does not schedule
    // with setTimeout, so faking only it leaves rendering alone.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await act(async () => fireEvent.click(copy));
    expect(writeText).toHaveBeenCalledWith('pk_live_copy');
    expect(within(copy).getByTestId('copied-icon')).toBeTruthy();

    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(within(copy).getByTestId('copied-icon')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(within(copy).queryByTestId('copied-icon')).toBeNull();
    expect(within(copy).getByTestId('copy-icon')).toBeTruthy();
  });
});

describe('Domain whitelist', () => {
  it('warns when empty, adds and removes domains', async () => {
    logIn();
    const server = serveProject();
    const { user } = renderApp(`/console/${server.project.id}/config`);
    const warning =
      "No domains whitelisted. Your API key will not work. Please add domains where you'll be using the Polyflow SDK.";

    expect(await screen.findByText(warning)).toBeTruthy();
    const input = screen.getByLabelText<HTMLInputElement>('Domain');
    expect(input.placeholder).toBe('E.g. polyflow.dev or app.polyflow.dev');
    const add = screen.getByRole<HTMLButtonElement>('button', { name: 'Add' });
    expect(add.disabled).toBe(true);

    await user.type(input, 'app.polyflow.dev{Enter}');
    expect(await screen.findByText('app.polyflow.dev')).toBeTruthy();
    expect(input.value).toBe('');
    // Add is disabled again once the field is empty: focus stays in the field, and the change is said.
    await waitFor(() => expect(announced()).toBe('Domain app.polyflow.dev added'));
    expect(document.activeElement).toBe(input);
    expect(screen.queryByText(warning)).toBeNull();
    expect(storedProject()?.whitelistedDomains).toEqual(['app.polyflow.dev']);
    expect(server.api.calls(`PATCH ${server.base}/domains/add`)[0]?.body).toEqual({
      domain: 'app.polyflow.dev',
    });

    await user.click(screen.getByRole('button', { name: 'Remove app.polyflow.dev' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove this domain?' });
    expect(confirm.textContent).toContain('Events from pages on app.polyflow.dev are refused from now on');
    expect(confirm.textContent).toContain('the API key works on no page at all');
    expect(server.api.calls(`PATCH ${server.base}/domains/delete`)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Remove domain' }));
    expect(await screen.findByText(warning)).toBeTruthy();
    // No domain left: focus goes to the card's heading rather than the page's body.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'SDK Domain Whitelist' })),
    );
    await waitFor(() => expect(announced()).toBe('Domain app.polyflow.dev removed'));
    expect(server.api.calls(`PATCH ${server.base}/domains/delete`)[0]?.body).toEqual({
      domain: 'app.polyflow.dev',
    });
    expect(storedProject()?.whitelistedDomains).toEqual([]);
  });

  it('moves focus to the next domain’s Remove button after a removal, else the previous one', async () => {
    logIn();
    const server = serveProject({ whitelistedDomains: ['a.example.com', 'b.example.com', 'c.example.com'] });
    const { user } = renderApp(`/console/${server.project.id}/config`);
    const removeDomain = async (domain: string) => {
      await user.click(await screen.findByRole('button', { name: `Remove ${domain}` }));
      const confirm = await screen.findByRole('dialog', { name: 'Remove this domain?' });
      await user.click(within(confirm).getByRole('button', { name: 'Remove domain' }));
      await waitFor(() => expect(screen.queryByRole('button', { name: `Remove ${domain}` })).toBeNull());
    };

    await removeDomain('b.example.com');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove c.example.com' })),
    );
    await waitFor(() => expect(announced()).toBe('Domain b.example.com removed'));
    await removeDomain('c.example.com');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove a.example.com' })),
    );
  });

  it('keeps the input and shows the server error in the Error modal', async () => {
    logIn();
    const project = buildProject({ whitelistedDomains: ['polyflow.dev'] });
    mockApi({
      'GET /projects': json(200, { projects: [project] }),
      [`PATCH /projects/${project.id}/domains/add`]: apiError(
        400,
        'DOMAIN_ALREADY_WHITELISTED',
        'polyflow.dev is already whitelisted.',
      ),
    });
    const { user } = renderApp(`/console/${project.id}/config`);
    const input = await screen.findByLabelText<HTMLInputElement>('Domain');
    await user.type(input, 'polyflow.dev');
    await user.click(screen.getByRole('button', { name: 'Add' }));

    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByText('polyflow.dev is already whitelisted.')).toBeTruthy();
    expect(input.value).toBe('polyflow.dev');
  });
});

describe('Danger zone', () => {
  it('deletes the project only after its name is typed, then asks for another project', async () => {
    logIn();
    const server = serveProject({ name: 'Shop' });
    const { user, location } = renderApp(`/console/${server.project.id}/config`);
    const confirmField = await screen.findByLabelText('Type Shop to confirm');
    const remove = screen.getByRole<HTMLButtonElement>('button', { name: 'Delete project' });
    expect(screen.getByText(/turns off Polyflow on all instances using this project's API key/)).toBeTruthy();
    expect(remove.disabled).toBe(true);
    await user.type(confirmField, 'Sho');
    expect(remove.disabled).toBe(true);
    await user.type(confirmField, 'p');
    expect(remove.disabled).toBe(false);

    await user.click(remove);
    const dialog = await screen.findByRole('dialog', { name: 'My Projects' });
    await waitFor(() => expect(location()).toBe('/console/analytics'));
    expect(server.api.calls(`DELETE ${server.base}`)).toHaveLength(1);
    expect(storedProject()).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Open Shop' })).toBeNull();
  });
});

describe('read tokens', () => {
  it('creates a token shown once with a copy button and a warning, lists it, and revokes it after a confirm', async () => {
    logIn();
    const server = serveProject();
    const { user } = renderApp(`/console/${server.project.id}/config`);
    const card = (await screen.findByRole('heading', { name: 'Read tokens' })).closest(
      'section',
    ) as HTMLElement;
    expect(await within(card).findByText('No read tokens yet.')).toBeTruthy();

    await user.type(within(card).getByLabelText('Token name'), 'Metabase');
    await user.click(within(card).getByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Copy your read token' });
    expect((within(dialog).getByLabelText('Read token Metabase') as HTMLInputElement).value).toBe(
      'pfr_secret1',
    );
    expect(within(dialog).getByRole('button', { name: 'Copy read token' })).toBeTruthy();
    expect(within(dialog).getByText(/only time the token is shown/)).toBeTruthy();
    expect(server.api.requests.at(-2)).toMatchObject({ method: 'POST', body: { name: 'Metabase' } });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    const list = await within(card).findByRole('list', { name: 'Read tokens' });
    expect(within(list).getByText('Metabase')).toBeTruthy();
    // Create token is disabled (its field is empty): focus goes to the new token's row, not the body.
    await waitFor(() => expect(document.activeElement).toBe(within(list).getByRole('listitem')));
    await user.click(within(list).getByRole('button', { name: 'Revoke Metabase' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke this read token?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke token' }));
    expect(await within(card).findByText('No read tokens yet.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('No read tokens yet.'));
    await waitFor(() => expect(announced()).toBe('Read token Metabase revoked'));
    expect(
      server.api.requests.some((r) => r.method === 'DELETE' && r.path.endsWith('/read-tokens/token-1')),
    ).toBe(true);
  });

  it('keeps a token when the revoke is cancelled', async () => {
    logIn();
    const server = serveProject();
    const { user } = renderApp(`/console/${server.project.id}/config`);
    const card = (await screen.findByRole('heading', { name: 'Read tokens' })).closest(
      'section',
    ) as HTMLElement;
    await user.type(within(card).getByLabelText('Token name'), 'Script');
    await user.click(within(card).getByRole('button', { name: 'Create token' }));
    await user.click(await screen.findByRole('button', { name: 'Done' }));
    await user.click(await within(card).findByRole('button', { name: 'Revoke Script' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(within(card).getByText('Script')).toBeTruthy();
    expect(server.api.requests.some((r) => r.method === 'DELETE')).toBe(false);
  });
});

describe('data retention', () => {
  it('shows the retention, sets a number of days and goes back to forever', async () => {
    logIn();
    const server = serveProject();
    const { user } = renderApp(`/console/${server.project.id}/config`);
    const card = (await screen.findByRole('heading', { name: 'Data retention' })).closest(
      'section',
    ) as HTMLElement;
    expect(within(card).getByText('Events are kept forever.')).toBeTruthy();
    const field = within(card).getByLabelText('Keep events for (days)');
    await user.type(field, '0');
    expect(within(card).getByText('Enter a whole number of days from 1 to 3650.')).toBeTruthy();
    expect((within(card).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    await user.clear(field);
    await user.type(field, '90');
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(await within(card).findByText('Events older than 90 days are deleted every hour.')).toBeTruthy();
    expect(server.project.retentionDays).toBe(90);
    await user.click(within(card).getByRole('button', { name: 'Keep forever' }));
    expect(await within(card).findByText('Events are kept forever.')).toBeTruthy();
    expect(server.project.retentionDays).toBeNull();
  });
});

describe('ignored wallet errors', () => {
  it('shows 4001 ignored, adds an offered code and another one, refuses a code that is no number', async () => {
    logIn();
    const server = serveProject();
    const { user } = renderApp(`/console/${server.project.id}/config`);
    const card = (await screen.findByRole('heading', { name: 'Ignored wallet errors' })).closest(
      'section',
    ) as HTMLElement;
    expect(within(card).getByText('Ignored: 4001.')).toBeTruthy();
    const save = () => within(card).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    // Nothing changed yet: nothing to save.
    expect(save().disabled).toBe(true);
    expect((within(card).getByRole('checkbox', { name: /4001/ }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(card).getByRole('checkbox', { name: /4100/ }));
    const other = within(card).getByLabelText('Other codes');
    await user.type(other, '12a');
    expect(within(card).getByText(/Enter whole numbers/)).toBeTruthy();
    expect(save().disabled).toBe(true);
    await user.clear(other);
    await user.type(other, '-32603');
    await user.click(save());
    const savedLine = await within(card).findByText('Ignored: -32603, 4001, 4100.');
    // Save is disabled again once saved: focus goes to the line saying what is ignored, not the body.
    await waitFor(() => expect(document.activeElement).toBe(savedLine));
    expect(server.project.ignoredWalletCodes).toEqual([-32603, 4001, 4100]);
    expect(server.api.calls(`PUT ${server.base}/ignored-wallet-codes`).at(-1)?.body).toEqual({
      codes: [-32603, 4001, 4100],
    });

    // Unticking everything: every wallet error is an incident.
    await user.click(within(card).getByRole('checkbox', { name: /4001/ }));
    await user.click(within(card).getByRole('checkbox', { name: /4100/ }));
    await user.clear(within(card).getByLabelText('Other codes'));
    await user.click(save());
    expect(
      await within(card).findByText('Every wallet error is an incident, refusals included.'),
    ).toBeTruthy();
  });
});

describe('roles', () => {
  it('shows a viewer every card with its controls disabled and the reason on hover', async () => {
    logIn();
    const server = serveProject({
      role: 'viewer',
      apiKey: 'pk_live_1',
      whitelistedDomains: ['shop.example'],
    });
    renderApp(`/console/${server.project.id}/config`);
    expect(await screen.findByText(/You are a viewer of this project/)).toBeTruthy();
    // happy-dom does not apply a disabled fieldset to its controls; Chromium does (the e2e journey).
    for (const name of ['Replace', 'Create token', 'Add', 'Delete project']) {
      const fieldset = (await screen.findByRole('button', { name })).closest('fieldset');
      expect(fieldset?.disabled, name).toBe(true);
      expect(fieldset?.getAttribute('title')).toMatch(/Viewers cannot|Only the owner/);
    }
    expect(server.api.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('lets an admin change the project but not delete it', async () => {
    logIn();
    const server = serveProject({ role: 'admin' });
    renderApp(`/console/${server.project.id}/config`);
    const create = await screen.findByRole('button', { name: 'Create token' });
    // Unlocked cards sit in no fieldset at all (an unnamed group to a screen reader).
    expect(create.closest('fieldset')).toBeNull();
    const remove = screen.getByRole('button', { name: 'Delete project' });
    expect(remove.closest('fieldset')?.disabled).toBe(true);
    expect(screen.queryByText(/You are a viewer/)).toBeNull();
  });
});

const cardOf = async (title: string) =>
  (await screen.findByRole('heading', { name: title })).closest('section') as HTMLElement;

describe('raw export', () => {
  it('exports the chosen days of a UTC project in the chosen format, saves the file and says what it holds', async () => {
    logIn();
    const server = serveProject();
    const downloads = catchCsvDownloads();
    const asked: string[] = [];
    const csv =
      'project_id,id,type,message\r\np,e1,page_view,\r\np,e2,error,"two\r\nlines"\r\np,e3,page_view,\r\n';
    const serveApi = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (!url.includes('/export/events')) return serveApi(input, init);
      asked.push(url);
      expect(new Headers(init?.headers).get('authorization')).toBe('Bearer session-token');
      return new Response(csv, {
        status: 200,
        headers: {
          'Content-Type': 'text/csv; header=present',
          'Content-Disposition': 'attachment; filename="polyflow-events-shop-2026-03-01-2026-03-03.csv"',
        },
      });
    });
    const { user } = renderApp(`/console/${server.project.id}/config`);
    const card = await cardOf('Export raw events');

    fireEvent.change(within(card).getByLabelText('First day'), { target: { value: '2026-03-05' } });
    fireEvent.change(within(card).getByLabelText('Last day'), { target: { value: '2026-03-01' } });
    expect(within(card).getByText('The first day must not be after the last.')).toBeTruthy();
    expect((within(card).getByRole('button', { name: 'Export events' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.change(within(card).getByLabelText('First day'), { target: { value: '2026-03-01' } });
    fireEvent.change(within(card).getByLabelText('Last day'), { target: { value: '2026-03-02' } });
    await user.click(within(card).getByRole('radio', { name: /CSV/ }));
    await user.click(within(card).getByRole('button', { name: 'Export events' }));

    const result = await within(card).findByRole('status');
    // Three events: a quoted line break is not a record.
    expect(result.textContent).toBe('Saved polyflow-events-shop-2026-03-01-2026-03-03.csv: 3 events, 87 B.');
    // The last day is whole: the range ends at the next midnight.
    const query = new URL(asked[0] ?? '', 'http://console.test').searchParams;
    expect(Object.fromEntries(query)).toEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-03T00:00:00.000Z',
      format: 'csv',
    });
    const [file] = await downloads.take();
    expect(file?.fileName).toBe('polyflow-events-shop-2026-03-01-2026-03-03.csv');
    expect(file?.records).toHaveLength(4);
  });

  it('exports whole local days of the project’s zone across a change, with the local time column when asked', async () => {
    logIn();
    const server = serveProject({ timeZone: 'Europe/Berlin' });
    catchCsvDownloads();
    const asked: string[] = [];
    const serveApi = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (!url.includes('/export/events')) return serveApi(input, init);
      asked.push(url);
      return new Response('project_id,id,local_time\r\np,e1,2026-03-29T03:00:00.000+02:00\r\n', {
        status: 200,
        headers: { 'Content-Type': 'text/csv; header=present' },
      });
    });
    const { user } = renderApp(`/console/${server.project.id}/config`);
    const card = await cardOf('Export raw events');
    expect(within(card).getByText(/days chosen \(Europe\/Berlin,/)).toBeTruthy();

    fireEvent.change(within(card).getByLabelText('First day'), { target: { value: '2026-03-28' } });
    fireEvent.change(within(card).getByLabelText('Last day'), { target: { value: '2026-03-29' } });
    const localTime = within(card).getByRole('checkbox', { name: /Add local time/ }) as HTMLInputElement;
    expect(localTime.checked).toBe(false);
    await user.click(localTime);
    await user.click(within(card).getByRole('button', { name: 'Export events' }));
    await within(card).findByRole('status');

    // 28 March starts at 23:00 UTC the day before (CET); 30 March at 22:00 UTC (CEST): 47 hours.
    const query = new URL(asked[0] ?? '', 'http://console.test').searchParams;
    expect(Object.fromEntries(query)).toEqual({
      from: '2026-03-27T23:00:00.000Z',
      to: '2026-03-29T22:00:00.000Z',
      format: 'csv',
      localTime: 'true',
    });
  });

  it('shows the server’s refusal inline', async () => {
    logIn();
    const server = serveProject({}, (base) => ({
      [`GET ${base}/export/events`]: apiError(400, 'INVALID_REQUEST', 'from must be before to.'),
    }));
    const { user } = renderApp(`/console/${server.project.id}/config`);
    const card = await cardOf('Export raw events');
    await user.click(within(card).getByRole('button', { name: 'Export events' }));
    expect((await within(card).findByRole('alert')).textContent).toBe('from must be before to.');
  });
});

describe('forgetting a wallet or user', () => {
  it('checks the address, names what will be deleted, deletes after the confirm and says how much', async () => {
    logIn();
    const wallet = '0x1111222233334444555566667777888899990000';
    const server = serveProject({}, (base) => ({ [`POST ${base}/forget`]: json(200, { deleted: 12 }) }));
    const { user } = renderApp(`/console/${server.project.id}/config`);
    const card = await cardOf('Forget a wallet or user');
    const field = within(card).getByLabelText('Wallet address');
    const forget = within(card).getByRole('button', { name: 'Forget…' }) as HTMLButtonElement;

    await user.type(field, '0x1234');
    expect(within(card).getByText('A wallet address is 0x and 40 hex digits.')).toBeTruthy();
    expect(forget.disabled).toBe(true);
    await user.clear(field);
    await user.type(field, wallet);
    await user.click(forget);

    let dialog = await screen.findByRole('dialog', { name: 'Forget this wallet?' });
    expect(dialog.textContent).toContain(`Every event of Shop where ${wallet} is the connected wallet`);
    expect(dialog.textContent).toContain('forget their user id as well');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.api.calls(`POST /projects/${server.project.id}/forget`)).toHaveLength(0);

    await user.click(forget);
    dialog = await screen.findByRole('dialog', { name: 'Forget this wallet?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete their events' }));
    const outcome = await within(card).findByRole('status');
    expect(outcome.textContent).toBe(`Deleted 12 events of wallet ${wallet}.`);
    // Forget… is disabled once the field is empty: focus goes to the outcome, which reads it out.
    await waitFor(() => expect(document.activeElement).toBe(outcome));
    expect(server.api.calls(`POST /projects/${server.project.id}/forget`)[0]?.body).toEqual({ wallet });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('forgets a user by id, one event in the singular', async () => {
    logIn();
    const server = serveProject({}, (base) => ({ [`POST ${base}/forget`]: json(200, { deleted: 1 }) }));
    const { user } = renderApp(`/console/${server.project.id}/config`);
    const card = await cardOf('Forget a wallet or user');
    await user.click(within(card).getByRole('radio', { name: 'User' }));
    await user.type(within(card).getByLabelText('User id'), 'u_42');
    await user.click(within(card).getByRole('button', { name: 'Forget…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Forget this user?' });
    expect(dialog.textContent).toContain('Every event of Shop with the user id u_42 is deleted');
    await user.click(within(dialog).getByRole('button', { name: 'Delete their events' }));
    expect((await within(card).findByRole('status')).textContent).toBe('Deleted 1 event of user u_42.');
    expect(server.api.calls(`POST /projects/${server.project.id}/forget`)[0]?.body).toEqual({
      userId: 'u_42',
    });
  });
});

describe('layout', () => {
  it('keeps a gap between stacked cards, and Export raw events in a column with Forget, not stretched alone', async () => {
    logIn();
    const server = serveProject();
    renderApp(`/console/${server.project.id}/config`);
    const annotations = await cardOf('Annotations');
    const ignored = await cardOf('Ignored wallet errors');
    // Two cards in one grid cell: a column with a gap (before, they touched).
    const stack = annotations.parentElement as HTMLElement;
    expect(stack).toBe(ignored.parentElement);
    expect(stack.className).toMatch(/\bflex-col\b/);
    expect(stack.className).toMatch(/\bgap-4\b/);
    // Export raw events shares its cell with Forget: its own height, not the tall row's.
    const exportCard = await cardOf('Export raw events');
    const forget = await cardOf('Forget a wallet or user');
    const column = exportCard.parentElement as HTMLElement;
    expect(column.contains(forget)).toBe(true);
    expect(column.className).toMatch(/\bflex-col\b/);
    expect(column.className).toMatch(/\bgap-4\b/);
  });
});
