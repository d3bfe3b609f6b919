import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  buildChannel,
  buildDelivery,
  buildFiring,
  buildRule,
  buildSubscription,
  IDS,
} from '../../features/alerts/testing/builders';
import { buildProject, logIn } from '../../testing/fixtures';
import { apiError, json, mockApi } from '../../testing/mock-api';
import { renderApp } from '../../testing/render-app';

type Handlers = Parameters<typeof mockApi>[0];

/** What the console's one live region (lib/announce.ts) says last. */
const announced = () => screen.queryByTestId('announcer')?.textContent;

const USER_ADA = '5d1e7c1a-0000-4000-8000-0000000000ad';
const USER_CY = '5d1e7c1a-0000-4000-8000-0000000000c7';

const member = (email: string, role: 'owner' | 'admin' | 'viewer') => ({
  userId: email.startsWith('ada') ? USER_ADA : USER_CY,
  email,
  role,
  joinedAt: '2026-11-01T10:00:00.000Z',
});

/** The Alerts screen of project "Shop" for ada (owner) or cy (viewer), with the routes' answers overridable. */
function renderAlerts(role: 'owner' | 'viewer', handlers: (base: string) => Handlers = () => ({})) {
  logIn({ email: role === 'owner' ? 'ada@example.com' : 'cy@example.com' });
  const project = buildProject({ name: 'Shop', role });
  const base = `/projects/${project.id}`;
  const api = mockApi({
    'GET /projects': json(200, { projects: [project] }),
    [`GET ${base}/members`]: json(200, {
      members: [member('ada@example.com', 'owner'), member('cy@example.com', 'viewer')],
      invitations: [],
    }),
    [`GET ${base}/alert-rules`]: json(200, { alertRules: [] }),
    [`GET ${base}/alert-channels`]: json(200, { alertChannels: [] }),
    [`GET ${base}/report-subscriptions`]: json(200, {
      reportSubscriptions: [
        buildSubscription('ada@example.com', { weekly: true }),
        buildSubscription('cy@example.com'),
      ],
    }),
    ...handlers(base),
  });
  return { base, api, ...renderApp(`/console/${project.id}/alerts`) };
}

describe('Alerts screen: rules', () => {
  it('checks each parameter against its range, previews the last 7 days once typing pauses, and creates the rule', async () => {
    const { base, api, user } = renderAlerts('owner', (base) => ({
      [`GET ${base}/alert-channels`]: json(200, { alertChannels: [buildChannel({ id: IDS.channel })] }),
      [`POST ${base}/alert-rules/preview`]: json(200, {
        firings: [buildFiring({ at: '2026-11-27T08:00:00.000Z' }), buildFiring()],
      }),
      [`POST ${base}/alert-rules`]: json(201, buildRule({ channelIds: [IDS.channel] })),
    }));
    expect(await screen.findByText('No alert rules yet')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'New rule' }));
    const form = screen.getByRole('form', { name: 'New alert rule' });
    // New rule gives its place to the form: focus goes to the form's first field.
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByLabelText('Name')));

    const window = within(form).getByLabelText('Window (minutes)');
    await user.clear(window);
    await user.type(window, '2');
    await user.tab();
    expect(within(form).getByText('Window must be a whole number from 5 to 1440')).toBeTruthy();
    expect(screen.getByText('Fix the parameters to see what this rule would have fired.')).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Create rule' }));
    expect(within(form).getByText('Give the rule a name')).toBeTruthy();
    expect(api.calls(`POST ${base}/alert-rules`)).toHaveLength(0);
    // Focus goes to the first field in error (the name, before the window), so its error is read out.
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByLabelText('Name')));

    await user.clear(window);
    await user.type(window, '120');
    const preview = screen.getByRole('region', { name: 'Preview: the last 7 days' });
    const params = { thresholdPercent: 10, minTransactions: 20 };
    // Debounced: the defaults asked once when the form opened; "12" then "120" typed quickly ask once more.
    await waitFor(() =>
      expect(api.calls(`POST ${base}/alert-rules/preview`).map((call) => call.body)).toEqual([
        { kind: 'tx_fail_rate', params: { windowMinutes: 60, ...params }, cooldownMinutes: 60 },
        { kind: 'tx_fail_rate', params: { windowMinutes: 120, ...params }, cooldownMinutes: 60 },
      ]),
    );
    await within(preview).findByText('2 times');
    expect(within(preview).getAllByText('25%')).toHaveLength(2);

    await user.type(within(form).getByLabelText('Name'), 'Checkout failing');
    await user.click(within(form).getByRole('checkbox', { name: /Ops webhook/ }));
    await user.click(within(form).getByRole('button', { name: 'Create rule' }));
    await waitFor(() => expect(api.calls(`POST ${base}/alert-rules`)).toHaveLength(1));
    expect(api.calls(`POST ${base}/alert-rules`)[0]?.body).toEqual({
      name: 'Checkout failing',
      kind: 'tx_fail_rate',
      params: { windowMinutes: 120, thresholdPercent: 10, minTransactions: 20 },
      channelIds: [IDS.channel],
      cooldownMinutes: 60,
    });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New alert rule' })).toBeNull());
    // The form went with its focused button: focus goes to New rule (this server lists no rule), and the
    // save is said.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New rule' })),
    );
    expect(announced()).toBe('Rule saved');
  }, 20_000);

  it("shows each kind's own fields and the server's refusal under the form", async () => {
    const { base, user } = renderAlerts('owner', (base) => ({
      [`POST ${base}/alert-rules/preview`]: json(200, { firings: [] }),
      [`POST ${base}/alert-rules`]: apiError(
        400,
        'INVALID_REQUEST_BODY',
        'A project has at most 50 alert rules',
      ),
    }));
    await user.click(await screen.findByRole('button', { name: 'New rule' }));
    const form = screen.getByRole('form', { name: 'New alert rule' });
    await user.selectOptions(within(form).getByLabelText('When'), 'no_events');
    expect(within(form).queryByLabelText('Window (minutes)')).toBeNull();
    const hours = within(form).getByLabelText('Silent for (hours)');
    await user.clear(hours);
    await user.type(hours, '169');
    await user.tab();
    expect(within(form).getByText('Silent for must be a whole number from 1 to 168')).toBeTruthy();
    await user.clear(hours);
    await user.type(hours, '12');
    expect(await screen.findByText('This rule would not have fired in the last 7 days.')).toBeTruthy();

    await user.selectOptions(within(form).getByLabelText('When'), 'new_incident');
    expect((within(form).getByLabelText('Minimum severity') as HTMLSelectElement).value).toBe('high');
    await user.selectOptions(within(form).getByLabelText('When'), 'incident_regression');
    expect(within(form).queryByRole('spinbutton', { name: /Occurrences/ })).toBeNull();
    await user.type(within(form).getByLabelText('Name'), 'Regressions');
    await user.click(within(form).getByRole('button', { name: 'Create rule' }));
    expect(await within(form).findByText('A project has at most 50 alert rules')).toBeTruthy();
    expect(base).toContain('/projects/');
  }, 20_000);

  it('lists rules with their state, pauses one, edits one, lists its firings and deletes it after asking', async () => {
    const channel = buildChannel({ id: IDS.channel, name: 'Ops webhook' });
    const rule = buildRule({
      channelIds: [IDS.channel],
      state: 'firing',
      lastFiredAt: '2026-11-28T09:15:00.000Z',
    });
    let alertRules = [rule];
    const { base, api, user } = renderAlerts('owner', (base) => ({
      [`GET ${base}/alert-rules`]: () => json(200, { alertRules }),
      [`GET ${base}/alert-channels`]: json(200, { alertChannels: [channel] }),
      [`PATCH ${base}/alert-rules/${IDS.rule}`]: json(200, { ...rule, paused: true }),
      [`DELETE ${base}/alert-rules/${IDS.rule}`]: () => {
        alertRules = [];
        return json(204);
      },
      [`POST ${base}/alert-rules/preview`]: json(200, { firings: [] }),
      [`GET ${base}/alert-rules/${IDS.rule}/firings`]: json(200, {
        firings: [
          buildFiring({ id: IDS.laterFiring, type: 'resolved', at: '2026-11-28T10:15:00.000Z' }),
          buildFiring({ id: IDS.firing }),
        ],
      }),
    }));
    const rules = await screen.findByRole('list', { name: 'Alert rules' });
    expect(within(rules).getByText('Firing')).toBeTruthy();
    expect(
      within(rules).getByText('Fail rate above 10% over 60 minutes, at least 20 transactions', {
        exact: false,
      }),
    ).toBeTruthy();
    expect(within(rules).getByText(/Notifies Ops webhook/)).toBeTruthy();

    const pause = within(rules).getByRole('button', { name: 'Pause Checkout failing' });
    await user.click(pause);
    await waitFor(() => expect(api.calls(`PATCH ${base}/alert-rules/${IDS.rule}`)).toHaveLength(1));
    // Pending, the button stays focusable, so focus stays on it.
    await waitFor(() => expect(pause.getAttribute('aria-busy')).toBeNull());
    expect(document.activeElement).toBe(pause);
    expect(api.calls(`PATCH ${base}/alert-rules/${IDS.rule}`)[0]?.body).toEqual({ paused: true });

    await user.click(within(rules).getByRole('button', { name: 'Firings of Checkout failing' }));
    const firings = await screen.findByRole('list', { name: 'Firings of Checkout failing' });
    expect(within(firings).getAllByRole('listitem')).toHaveLength(2);
    expect(within(firings).getByText('Resolved')).toBeTruthy();
    expect(within(firings).getByText('28 Nov 2026, 09:15:00 UTC')).toBeTruthy();

    await user.click(within(rules).getByRole('button', { name: 'Edit Checkout failing' }));
    const edit = screen.getByRole('form', { name: 'Edit the rule Checkout failing' });
    await waitFor(() => expect(document.activeElement).toBe(within(edit).getByLabelText('Name')));
    expect((within(edit).getByLabelText('When') as HTMLSelectElement).disabled).toBe(true);
    const threshold = within(edit).getByLabelText('Fail rate above (%)');
    await user.clear(threshold);
    await user.type(threshold, '12.5');
    await user.click(within(edit).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls(`PATCH ${base}/alert-rules/${IDS.rule}`)).toHaveLength(2));
    expect(api.calls(`PATCH ${base}/alert-rules/${IDS.rule}`)[1]?.body).toEqual({
      name: 'Checkout failing',
      params: { windowMinutes: 60, thresholdPercent: 12.5, minTransactions: 20 },
      channelIds: [IDS.channel],
      cooldownMinutes: 60,
    });
    // The form gives the rule its place back: focus goes to its Edit button.
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(rules).getByRole('button', { name: 'Edit Checkout failing' }),
      ),
    );
    expect(announced()).toBe('Rule saved');

    await user.click(await within(rules).findByRole('button', { name: 'Delete Checkout failing' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this rule?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete rule' }));
    await waitFor(() => expect(api.calls(`DELETE ${base}/alert-rules/${IDS.rule}`)).toHaveLength(1));
    // No rule left: focus goes to the card's heading, not the page's body.
    expect(await screen.findByText('No alert rules yet')).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.id).toBe('rules-title'));
    expect(announced()).toBe('Rule Checkout failing deleted');
  }, 20_000);
});

describe('Alerts screen: channels', () => {
  it('shows a new webhook secret once with a copy button, sends a test and shows the delivery log', async () => {
    const created = buildChannel({ id: IDS.otherChannel, name: 'Receiver' });
    let channels = [
      buildChannel({ id: IDS.channel, type: 'email', name: 'On-call', url: null, memberIds: [USER_ADA] }),
    ];
    const { base, api, user } = renderAlerts('owner', (base) => ({
      [`GET ${base}/alert-channels`]: () => json(200, { alertChannels: channels }),
      [`POST ${base}/alert-channels`]: () => {
        channels = [...channels, created];
        return json(201, { ...created, secret: 'whsec_0123456789abcdef' });
      },
      [`POST ${base}/alert-channels/${IDS.otherChannel}/test`]: json(202, { noticeId: 'n-1' }),
      [`GET ${base}/alert-channels/${IDS.otherChannel}/deliveries`]: json(200, {
        deliveries: [
          buildDelivery({ id: 'd-2', attempt: 2 }),
          buildDelivery({ id: 'd-1', statusCode: 500, latencyMs: 1200, error: 'HTTP 500', state: 'pending' }),
        ],
      }),
      [`DELETE ${base}/alert-channels/${IDS.channel}`]: () => {
        channels = channels.filter((channel) => channel.id !== IDS.channel);
        return json(204);
      },
    }));
    const list = await screen.findByRole('list', { name: 'Channels' });
    expect(within(list).getByText('ada@example.com')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'New channel' }));
    const form = screen.getByRole('form', { name: 'New channel' });
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByLabelText('Type')));
    await user.selectOptions(within(form).getByLabelText('Type'), 'webhook');
    await user.type(within(form).getByLabelText('Name'), 'Receiver');
    await user.type(within(form).getByLabelText('URL'), 'ftp://example.com/hook');
    await user.click(within(form).getByRole('button', { name: 'Add channel' }));
    expect(within(form).getByText('Only http:// and https:// URLs')).toBeTruthy();
    expect(api.calls(`POST ${base}/alert-channels`)).toHaveLength(0);
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByLabelText('URL')));
    await user.clear(within(form).getByLabelText('URL'));
    await user.type(within(form).getByLabelText('URL'), 'https://receiver.example.com/hook');
    await user.click(within(form).getByRole('button', { name: 'Add channel' }));

    const secret = await screen.findByRole('region', { name: 'Signing secret of Receiver' });
    expect((within(secret).getByLabelText('Signing secret') as HTMLInputElement).value).toBe(
      'whsec_0123456789abcdef',
    );
    expect(within(secret).getByText(/shown only this once/)).toBeTruthy();
    // Shown once: focus goes to it, so it is read first.
    await waitFor(() => expect(document.activeElement).toBe(within(secret).getByRole('heading')));
    expect(announced()).toBe('Channel saved');
    expect(within(secret).getByRole('button', { name: 'Copy the signing secret' })).toBeTruthy();
    expect(api.calls(`POST ${base}/alert-channels`)[0]?.body).toEqual({
      type: 'webhook',
      name: 'Receiver',
      url: 'https://receiver.example.com/hook',
    });
    await user.click(within(secret).getByRole('button', { name: 'I have saved the secret' }));
    expect(screen.queryByRole('region', { name: 'Signing secret of Receiver' })).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete Receiver' })),
    );

    await user.click(await screen.findByRole('button', { name: 'Send a test to Receiver' }));
    await waitFor(() =>
      expect(api.calls(`POST ${base}/alert-channels/${IDS.otherChannel}/test`)).toHaveLength(1),
    );
    const log = await screen.findByRole('table', { name: 'Delivery log of Receiver' });
    const rows = within(log).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[2] as HTMLElement).getByText('HTTP 500')).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText('1200 ms')).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText('Pending')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Delete On-call' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this channel?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete channel' }));
    await waitFor(() => expect(api.calls(`DELETE ${base}/alert-channels/${IDS.channel}`)).toHaveLength(1));
    // Focus goes to the next channel's Delete button.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete On-call' })).toBeNull());
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete Receiver' })),
    );
    expect(announced()).toBe('Channel On-call deleted');
  }, 20_000);

  it('sends an email channel to the chosen members', async () => {
    const { base, api, user } = renderAlerts('owner', (base) => ({
      [`POST ${base}/alert-channels`]: json(
        201,
        buildChannel({ id: 'ch-2', type: 'email', name: 'Team', url: null, memberIds: [USER_CY] }),
      ),
    }));
    await user.click(await screen.findByRole('button', { name: 'New channel' }));
    const form = screen.getByRole('form', { name: 'New channel' });
    await user.type(within(form).getByLabelText('Name'), 'Team');
    await user.click(within(form).getByRole('button', { name: 'Add channel' }));
    expect(within(form).getByText('Choose at least one member')).toBeTruthy();
    await user.click(within(form).getByRole('checkbox', { name: 'cy@example.com' }));
    await user.click(within(form).getByRole('button', { name: 'Add channel' }));
    await waitFor(() => expect(api.calls(`POST ${base}/alert-channels`)).toHaveLength(1));
    expect(api.calls(`POST ${base}/alert-channels`)[0]?.body).toEqual({
      type: 'email',
      name: 'Team',
      memberIds: [USER_CY],
    });
    expect(screen.queryByRole('region', { name: /Signing secret/ })).toBeNull();
  });
});

describe('Alerts screen: viewers and reports', () => {
  it('shows a viewer everything without change buttons, and lets them choose their own reports', async () => {
    let cyMonthly = false;
    const { base, api, user } = renderAlerts('viewer', (base) => ({
      [`GET ${base}/alert-rules`]: json(200, { alertRules: [buildRule({ channelIds: [IDS.channel] })] }),
      [`GET ${base}/alert-channels`]: json(200, { alertChannels: [buildChannel({ id: IDS.channel })] }),
      [`GET ${base}/alert-rules/${IDS.rule}/firings`]: json(200, { firings: [buildFiring()] }),
      [`GET ${base}/alert-channels/${IDS.channel}/deliveries`]: json(200, { deliveries: [buildDelivery()] }),
      // The server's answer lags: the saved choice shows at once and stays while the list is fetched again.
      [`PUT ${base}/report-subscriptions/me`]: async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        cyMonthly = true;
        return json(200, buildSubscription('cy@example.com', { monthly: true }));
      },
      [`GET ${base}/report-subscriptions`]: () =>
        json(200, {
          reportSubscriptions: [
            buildSubscription('ada@example.com', { weekly: true }),
            buildSubscription('cy@example.com', { monthly: cyMonthly }),
          ],
        }),
    }));
    const rules = await screen.findByRole('list', { name: 'Alert rules' });
    const channels = await screen.findByRole('list', { name: 'Channels' });
    for (const name of [/New rule/, /New channel/, /Edit/, /Pause/, /Delete/, /Send a test/]) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    await user.click(within(rules).getByRole('button', { name: 'Firings of Checkout failing' }));
    expect(await screen.findByRole('list', { name: 'Firings of Checkout failing' })).toBeTruthy();
    await user.click(within(channels).getByRole('button', { name: 'Delivery log of Ops webhook' }));
    expect(await screen.findByRole('table', { name: 'Delivery log of Ops webhook' })).toBeTruthy();

    const reports = screen.getByRole('list', { name: 'Report subscriptions' });
    const ada = within(reports).getByText('ada@example.com').closest('li') as HTMLElement;
    expect(within(ada).queryByRole('checkbox')).toBeNull();
    expect(within(ada).getByText('Weekly report:').textContent).toContain('On');
    const own = within(reports).getByText('cy@example.com').closest('li') as HTMLElement;
    const monthly = within(own).getByRole('checkbox', { name: 'Monthly report' }) as HTMLInputElement;
    await user.click(monthly);
    expect(monthly.checked).toBe(true);
    await waitFor(() => expect(api.calls(`PUT ${base}/report-subscriptions/me`)).toHaveLength(1));
    expect(api.calls(`PUT ${base}/report-subscriptions/me`)[0]?.body).toEqual({
      weekly: false,
      monthly: true,
    });
    await waitFor(() => expect(api.calls(`GET ${base}/report-subscriptions`)).toHaveLength(2));
    expect(monthly.checked).toBe(true);
  }, 20_000);

  it('has an Alerts entry in the console navigation', async () => {
    renderAlerts('viewer');
    const sidebar = await screen.findByRole('navigation', { name: 'Console' });
    expect(within(sidebar).getByRole('link', { name: 'Alerts' }).getAttribute('href')).toMatch(/\/alerts$/);
    expect(await screen.findByRole('heading', { name: 'Alerts', level: 1 })).toBeTruthy();
  });
});
