import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { resolvePeriod } from '../../../components/ui/periods';
import { buildProject, logIn } from '../../../testing/fixtures';
import type { Reply } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { data, graphqlError, serveGraphql } from '../../../testing/serve-graphql';
import { analyticsAnswers, buildOverview } from '../testing/builders';

/** The dd of the tile labelled `label`. */
function tile(label: string): HTMLElement {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.parentElement as HTMLElement;
}

describe('Analytics overview', { timeout: 15_000 }, () => {
  it('shows every tile from the server, formatted for people', async () => {
    const session = logIn();
    const project = buildProject();
    const api = serveGraphql([project], analyticsAnswers);
    renderApp(`/console/${project.id}/analytics`);

    await waitFor(() => expect(tile('Total Transactions').textContent).toContain('12,345'));
    // Each tile says what it counts, with the figures behind a rate.
    expect(tile('Total Transactions').textContent).toContain('any outcome; 12,000 reached the chain');
    expect(tile('Unique Wallets').textContent).toContain('Wallets that connected in this period');
    expect(tile('Unique Wallets').textContent).toContain('1,520');
    expect(tile('New Wallets Connected').textContent).toContain('38');
    expect(tile('Transaction Fail Rate').textContent).toContain('2.7%');
    expect(tile('Transaction Fail Rate').textContent).toContain('333 of 12,333 sent reverted or failed');
    expect(tile('Daily Active Wallets').textContent).toContain('73.3');
    expect(tile('Average TX/User/Day').textContent).toContain('1.23');
    expect(tile('Daily Active Wallets Trend').textContent).toContain('+73%');
    expect(tile('Daily Active Wallets Trend').textContent).toContain('vs 42.4 a day in the previous 30 days');

    const [overview] = api.currentCallsOf('analyticsOverview');
    expect(overview?.variables.projectId).toBe(project.id);
    // Spec §6: Bearer token, and the same token as the API-key header.
    expect(overview?.headers.get('Authorization')).toBe(`Bearer ${session.token}`);
    expect(overview?.headers.get('X-API-KEY')).toBe(session.token);
    // The default period is 30D.
    const expected = resolvePeriod({ kind: 'preset', id: '30d' });
    expect(overview?.variables).toMatchObject({ from: expected.from, to: expected.to });
  });

  it("shows each tile's change against the previous period, and a neutral mark with nothing to compare", async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], {
      ...analyticsAnswers,
      analyticsOverview: (variables) =>
        data({
          analyticsOverview: variables.previous
            ? buildOverview({
                from: '2025-04-03T00:00:00.000Z',
                to: '2025-05-03T00:00:00.000Z',
                totalTransactions: 10000,
                connectedWallets: 0,
                transactionFailRate: 0.019,
              })
            : buildOverview(),
        }),
    });
    renderApp(`/console/${project.id}/analytics`);
    await waitFor(() => expect(within(tile('Total Transactions')).getByTestId('change')).toBeTruthy());
    // 12,345 against 10,000: up 23 %, good news.
    const total = within(tile('Total Transactions')).getByTestId('change');
    expect(total.getAttribute('data-direction')).toBe('up');
    expect(total.textContent).toContain('23%');
    expect(total.textContent).toContain('up 23% vs previous period');
    expect(tile('Total Transactions').textContent).toContain('Previous: 10,000');
    // A rate changes in points, and up is bad news for failures.
    const failRate = within(tile('Transaction Fail Rate')).getByTestId('change');
    expect(failRate.textContent).toContain('0.8 pp');
    expect(failRate.className).toContain('red');
    // No wallet connected before: nothing to compare with, no invented percentage.
    const wallets = within(tile('Unique Wallets')).getByTestId('change');
    expect(wallets.getAttribute('data-direction')).toBe('none');
    expect(wallets.textContent).toBe('nothing to compare with vs previous period');
    expect(screen.getByTestId('comparison-period').textContent).toContain('the previous 30 days');
    const previousCall = api.callsOf('analyticsOverview').find((call) => call.variables.previous === true);
    const expected = resolvePeriod({ kind: 'preset', id: '30d' });
    expect(previousCall?.variables).toMatchObject({ from: expected.from, to: expected.to });
  });

  it('rounds honestly and compares a day in progress with the same hours of the day before', async () => {
    logIn();
    const project = buildProject();
    serveGraphql([project], {
      ...analyticsAnswers,
      analyticsOverview: data({
        analyticsOverview: buildOverview({
          // One wallet in 30 days: not "0".
          dailyActiveWallets: 1 / 30,
          averageTransactionsPerUserPerDay: 0.004,
          transactionFailRate: 0.0002,
          dailyActiveWalletsTrend: {
            current: 1 / 30,
            previous: 2.5,
            change: -0.648,
            previousFrom: '2025-05-31T00:00:00.000Z',
            previousTo: '2025-05-31T07:40:00.000Z',
          },
        }),
      }),
    });
    renderApp(`/console/${project.id}/analytics?period=today`);
    await waitFor(() => expect(tile('Daily Active Wallets').textContent).toContain('0.033'));
    expect(tile('Average TX/User/Day').textContent).toContain('< 0.01');
    expect(tile('Transaction Fail Rate').textContent).toContain('< 0.1%');
    expect(tile('Daily Active Wallets Trend').textContent).toContain(
      'vs 2.5 a day in the day before, until 07:40 UTC',
    );
  });

  it('shows a dash, not an invented figure, when there is nothing to divide by', async () => {
    logIn();
    const project = buildProject();
    serveGraphql([project], {
      ...analyticsAnswers,
      analyticsOverview: data({
        analyticsOverview: buildOverview({
          totalTransactions: 0,
          transactionFailRate: null,
          averageTransactionsPerUserPerDay: null,
          dailyActiveWalletsTrend: { ...buildOverview().dailyActiveWalletsTrend, previous: 0, change: null },
        }),
      }),
    });
    renderApp(`/console/${project.id}/analytics`);
    await waitFor(() => expect(tile('Total Transactions').textContent).toContain('0'));
    expect(tile('Transaction Fail Rate').textContent).toContain('—');
    expect(tile('Average TX/User/Day').textContent).toContain('—');
    expect(tile('Daily Active Wallets Trend').textContent).toContain(
      'No active wallets in the previous 30 days to compare with',
    ); // Some activity (connected wallets): no "nothing here" hint.
    expect(screen.queryByText(/No wallet activity in this period/)).toBeNull();
  });

  it('points a project without activity in the period to the SDK settings', async () => {
    logIn();
    const project = buildProject();
    serveGraphql([project], {
      ...analyticsAnswers,
      analyticsOverview: data({
        analyticsOverview: buildOverview({
          totalTransactions: 0,
          connectedWallets: 0,
          newWallets: 0,
          submittedTransactions: 0,
          failedTransactions: 0,
          transactionFailRate: null,
          dailyActiveWallets: 0,
          averageTransactionsPerUserPerDay: null,
        }),
      }),
    });
    renderApp(`/console/${project.id}/analytics`);
    expect(await screen.findByText(/No wallet activity in this period/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'SDK settings' }).getAttribute('href')).toBe(
      `/console/${project.id}/config`,
    );
  });

  it('keeps the total-transactions tile loading while its request runs, then drops it', async () => {
    logIn();
    const project = buildProject();
    let answer: (reply: Reply) => void = () => {};
    serveGraphql([project], {
      ...analyticsAnswers,
      analyticsOverview: (variables) =>
        variables.previous
          ? data({ analyticsOverview: buildOverview() })
          : new Promise<Reply>((resolve) => {
              answer = resolve;
            }),
    });
    renderApp(`/console/${project.id}/analytics`);

    await waitFor(() => expect(tile('Total Transactions').getAttribute('aria-busy')).toBe('true'));
    expect(within(tile('Total Transactions')).getByText('Loading')).toBeTruthy();
    answer(data({ analyticsOverview: buildOverview() }));
    await waitFor(() => expect(tile('Total Transactions').getAttribute('aria-busy')).toBe('false'));
    expect(tile('Total Transactions').textContent).toContain('12,345');
  });

  it('drops the loading state on error and offers a retry', async () => {
    logIn();
    const project = buildProject();
    let fail = true;
    const api = serveGraphql([project], {
      ...analyticsAnswers,
      analyticsOverview: () =>
        fail
          ? graphqlError('The event store is unavailable.', 'INTERNAL_ERROR', 500)
          : data({ analyticsOverview: buildOverview() }),
    });
    const { user } = renderApp(`/console/${project.id}/analytics`);

    const alert = await screen.findByText(/Could not load the overview: The event store is unavailable./);
    expect(tile('Total Transactions').getAttribute('aria-busy')).toBe('false');
    expect(tile('Total Transactions').textContent).toContain('—');
    fail = false;
    await user.click(
      within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Retry' }),
    );
    await waitFor(() => expect(tile('Total Transactions').textContent).toContain('12,345'));
    expect(api.currentCallsOf('analyticsOverview')).toHaveLength(2);
  });

  it('asks again with the new range when the period changes, and keeps it in the URL', async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], {
      ...analyticsAnswers,
      analyticsOverview: (variables) =>
        data({
          analyticsOverview: buildOverview({
            totalTransactions:
              variables.from === resolvePeriod({ kind: 'preset', id: '7d' }).from ? 777 : 12345,
          }),
        }),
    });
    const { user, location } = renderApp(`/console/${project.id}/analytics`);
    await waitFor(() => expect(tile('Total Transactions').textContent).toContain('12,345'));

    await user.click(screen.getByRole('button', { name: 'Week' }));
    await waitFor(() => expect(tile('Total Transactions').textContent).toContain('777'));
    const sevenDays = resolvePeriod({ kind: 'preset', id: '7d' });
    expect(api.currentCallsOf('analyticsOverview').at(-1)?.variables).toMatchObject({
      from: sevenDays.from,
      to: sevenDays.to,
    });
    expect(screen.getByRole('button', { name: 'Week' }).getAttribute('aria-pressed')).toBe('true');
    expect(location()).toContain('period=7d');
    // Charts follow: hourly or daily buckets for the same range.
    await waitFor(() =>
      expect(api.callsOf('averageGasPrice').at(-1)?.variables).toMatchObject({
        from: sevenDays.from,
        granularity: '1d',
      }),
    );

    await user.click(screen.getByRole('button', { name: 'Today' }));
    await waitFor(() =>
      expect(api.callsOf('averageGasPrice').at(-1)?.variables).toMatchObject({ granularity: '1h' }),
    );
  });

  it('applies a custom range of UTC days, both ends included', async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], analyticsAnswers);
    const { user, location } = renderApp(`/console/${project.id}/analytics`);
    await waitFor(() => expect(api.currentCallsOf('analyticsOverview')).toHaveLength(1));

    const from = screen.getByLabelText('From') as HTMLInputElement;
    const to = screen.getByLabelText('To') as HTMLInputElement;
    await user.clear(from);
    await user.type(from, '2025-01-01');
    await user.clear(to);
    await user.type(to, '2025-01-10');
    await user.click(screen.getByRole('button', { name: 'Apply range' }));

    await waitFor(() =>
      expect(api.currentCallsOf('analyticsOverview').at(-1)?.variables).toMatchObject({
        from: '2025-01-01T00:00:00.000Z',
        to: '2025-01-11T00:00:00.000Z',
      }),
    );
    expect(location()).toContain('period=custom&from=2025-01-01&to=2025-01-10');
    expect(screen.getByTestId('period-label').textContent).toBe('1 Jan 2025 – 10 Jan 2025 (UTC)');
  });

  it('explains a reversed or missing range beside the dates, which say they are invalid', async () => {
    logIn();
    const project = buildProject();
    serveGraphql([project], analyticsAnswers);
    const { user, location } = renderApp(`/console/${project.id}/analytics`);
    const from = (await screen.findByLabelText('From')) as HTMLInputElement;
    const to = screen.getByLabelText('To') as HTMLInputElement;
    await user.clear(from);
    await user.type(from, '2026-12-31');
    await user.clear(to);
    await user.type(to, '2026-12-01');

    const reason = screen.getByText('The start is after the end.', { selector: 'p' });
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(from.getAttribute('aria-describedby')).toBe(reason.id);
    const apply = screen.getByRole('button', { name: 'Apply range' }) as HTMLButtonElement;
    expect(apply.disabled).toBe(false);
    await user.click(apply);
    expect(location()).not.toContain('period=custom');
    expect(document.activeElement).toBe(from);
    await waitFor(() =>
      expect(screen.getByTestId('announcer').textContent).toBe('The start is after the end.'),
    );

    await user.clear(to);
    await user.type(to, '2027-01-02');
    expect(screen.queryByText('The start is after the end.', { selector: 'p' })).toBeNull();
    expect(from.getAttribute('aria-invalid')).toBeNull();
  });

  it("puts each tab's cards under a heading of the tab, at the same level in both tabs", async () => {
    logIn();
    const project = buildProject();
    serveGraphql([project], analyticsAnswers);
    const { user } = renderApp(`/console/${project.id}/analytics`);
    const outline = () =>
      [...document.querySelectorAll('main h2, main h3')].map(
        (heading) => `${heading.tagName} ${heading.textContent}`,
      );
    await screen.findByRole('heading', { name: 'Countries', level: 3 }, { timeout: 20_000 });
    const metrics = outline();
    expect(metrics.indexOf('H2 Metrics')).toBeGreaterThan(metrics.indexOf('H2 Overview'));
    for (const card of ['Goals', 'Countries', 'Average gas price paid'])
      expect(metrics.indexOf(`H3 ${card}`)).toBeGreaterThan(metrics.indexOf('H2 Metrics'));

    await user.click(screen.getByRole('tab', { name: 'Transaction History' }));
    expect(await screen.findByRole('heading', { name: 'Transaction History', level: 2 })).toBeTruthy();
    expect(outline()).not.toContain('H2 Metrics');
  });

  it('reads the period from the URL', async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], analyticsAnswers);
    renderApp(`/console/${project.id}/analytics?period=custom&from=2024-12-01&to=2024-12-31`);
    await waitFor(() =>
      expect(api.currentCallsOf('analyticsOverview')[0]?.variables).toMatchObject({
        from: '2024-12-01T00:00:00.000Z',
        to: '2025-01-01T00:00:00.000Z',
      }),
    );
  });

  it('switches between Metrics (default) and Transaction History', async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], analyticsAnswers);
    const { user, location } = renderApp(`/console/${project.id}/analytics`);

    const metrics = await screen.findByRole('tab', { name: 'Metrics' });
    expect(metrics.getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByRole('heading', { name: 'Average gas price paid' })).toBeTruthy();
    expect(api.callsOf('transactionHistory')).toHaveLength(0);

    await user.click(screen.getByRole('tab', { name: 'Transaction History' }));
    expect(screen.getByRole('tab', { name: 'Transaction History' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(await screen.findByText('No transactions in this period')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Average gas price paid' })).toBeNull();
    expect(api.callsOf('transactionHistory')).toHaveLength(1);
    expect(location()).toContain('tab=history');

    await user.click(screen.getByRole('tab', { name: 'Metrics' }));
    expect(await screen.findByRole('heading', { name: 'Average gas price paid' })).toBeTruthy();
  });

  it('asks every query again for the project chosen in the switcher', async () => {
    logIn();
    const first = buildProject({ name: 'First dapp' });
    const second = buildProject({ name: 'Second dapp' });
    const api = serveGraphql([first, second], {
      ...analyticsAnswers,
      analyticsOverview: (variables) =>
        data({
          analyticsOverview: buildOverview({
            totalTransactions: variables.projectId === second.id ? 42 : 12345,
          }),
        }),
    });
    const { user, location } = renderApp(`/console/${first.id}/analytics`);
    await waitFor(() => expect(tile('Total Transactions').textContent).toContain('12,345'));
    await waitFor(() => expect(api.callsOf('browsers')).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Switch project (current: First dapp)' }));
    await user.click(await screen.findByRole('button', { name: 'Open Second dapp' }));

    await waitFor(() => expect(tile('Total Transactions').textContent).toContain('42'));
    expect(location()).toBe(`/console/${second.id}/analytics`);
    for (const operation of [
      'analyticsOverview',
      'averageGasPrice',
      'failedTransactions',
      'contractFunctions',
      'walletProviders',
      'countries',
      'browsers',
    ]) {
      await waitFor(() =>
        expect(api.currentCallsOf(operation).map((call) => call.variables.projectId)).toEqual([
          first.id,
          second.id,
        ]),
      );
    }
  });
});
