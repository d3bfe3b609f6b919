import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildProject, logIn } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render-app';
import { type Answer, data, serveGraphql } from '../../../testing/serve-graphql';
import { analyticsAnswers } from '../testing/builders';

const pageRow = (path: string, users: number) => ({ path, users, wallets: 1, transactions: 2 });
const answers: Record<string, Answer> = {
  ...analyticsAnswers,
  topPages: data({ topPages: [pageRow('/swap', 9), pageRow('/pool', 4)] }),
  topReferrers: data({
    topReferrers: [
      { domain: 'google.com', users: 5, wallets: 1, transactions: 1 },
      { domain: null, users: 3, wallets: 0, transactions: 0 },
    ],
  }),
};
const stages = (asOf: string) => ({
  asOf,
  new: 1,
  resurrected: 0,
  power: 0,
  active: 2,
  atRisk: 0,
  churned: 0,
  powerThreshold: null,
});
answers.walletLifecycle = data({
  walletLifecycle: { current: stages('2024-05-31'), previous: stages('2024-04-30') },
});
const chips = () => screen.queryAllByTestId('filter-chip').map((chip) => chip.textContent);

describe('Analytics filters', { timeout: 90_000 }, () => {
  it('adds a filter from a click on a row, shows it as a chip, keeps it in the URL and asks every card with it', async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], answers);
    const { user, location } = renderApp(`/console/${project.id}/analytics`);
    await screen.findByText('Total Transactions', { selector: 'dt' }, { timeout: 40_000 });
    expect(chips()).toEqual([]);

    await user.click(
      await screen.findByRole('button', { name: 'Filter by Page: /swap' }, { timeout: 10_000 }),
    );
    await waitFor(() => expect(chips()).toEqual(['Page: /swap']));
    expect(location()).toContain('pages=%2Fswap');
    for (const field of [
      'analyticsOverview',
      'countries',
      'browsers',
      'walletProviders',
      'topPages',
      'topReferrers',
      'contractFunctions',
      'averageGasPrice',
      'failedTransactions',
      // The Wallets cards composed into the Metrics tab.
      'walletLifecycle',
      'retentionCohorts',
      'failedTransactionCost',
    ])
      await waitFor(() =>
        expect(api.lastCurrentCallOf(field)?.variables.filters, field).toEqual({ pages: ['/swap'] }),
      );

    // A second value, from the keyboard; Direct is no filter value.
    screen.getByRole('button', { name: 'Filter by Referrer: google.com' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(chips()).toEqual(['Page: /swap', 'Referrer: google.com']));
    expect(screen.queryByRole('button', { name: /Filter by Referrer: Direct/ })).toBeNull();
    await waitFor(() =>
      expect(api.lastCurrentCallOf('analyticsOverview')?.variables.filters).toEqual({
        pages: ['/swap'],
        referrers: ['google.com'],
      }),
    );

    // Removing a chip asks again without it.
    await user.click(screen.getByRole('button', { name: 'Remove filter Page: /swap' }));
    await waitFor(() => expect(chips()).toEqual(['Referrer: google.com']));
    expect(location()).not.toContain('pages=');
    await waitFor(() =>
      expect(api.lastCurrentCallOf('topPages')?.variables.filters).toEqual({ referrers: ['google.com'] }),
    );

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(chips()).toEqual([]));
    await waitFor(() => expect(api.lastCurrentCallOf('topPages')?.variables.filters).toBeUndefined());
  });

  it('keeps focus where the keyboard is when filters are added and removed, and says what changed', async () => {
    logIn();
    const project = buildProject();
    serveGraphql([project], answers);
    const { user } = renderApp(`/console/${project.id}/analytics?countries=DE`);
    const announcer = () => screen.getByTestId('announcer').textContent;
    const focused = () =>
      document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent;
    await screen.findByText('Total Transactions', { selector: 'dt' }, { timeout: 40_000 });

    // Focus stays on the row used if it is still there once the filter holds; when its card shows its
    // skeleton while the filtered answers load (the test's answers may come first), on the new chip.
    (await screen.findByRole('button', { name: 'Filter by Page: /swap' }, { timeout: 10_000 })).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(chips()).toContain('Page: /swap'));
    await waitFor(() => expect(['Filter by Page: /swap', 'Remove filter Page: /swap']).toContain(focused()));
    await waitFor(() =>
      expect(announcer()).toBe('Filter Page: /swap added; the screen shows what matches 2 filters'),
    );
    expect(document.activeElement).not.toBe(document.body);

    // Removing the last chip moves to the one before it; removing the only one left, to the card's heading.
    screen.getByRole('button', { name: 'Remove filter Page: /swap' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(focused()).toBe('Remove filter Country: Germany'));
    await waitFor(() => expect(announcer()).toBe('Filter Page: /swap removed'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(chips()).toEqual([]));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Overview' })),
    );
    await waitFor(() => expect(announcer()).toBe('Filter Country: Germany removed'));
  });

  it('reads the filters from the URL, naming countries and chains, and drops chain ids that are none', async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], answers);
    renderApp(`/console/${project.id}/analytics?countries=DE&chains=137&chains=x&walletProviders=MetaMask`);
    await waitFor(() =>
      expect(chips()).toEqual(['Country: Germany', 'Wallet provider: MetaMask', 'Chain: Polygon']),
    );
    await waitFor(() =>
      expect(api.lastCurrentCallOf('analyticsOverview')?.variables.filters).toEqual({
        countries: ['DE'],
        walletProviders: ['MetaMask'],
        chains: [137],
      }),
    );
    const region = screen.getByRole('region', { name: 'Filters' });
    expect(within(region).getByRole('button', { name: 'Remove filter Chain: Polygon' })).toBeTruthy();
    // A lifecycle count opens the Wallets list of its stage with the same filters (docs/wallets.md).
    const counts = await screen.findByTestId('lifecycle-counts', {}, { timeout: 10_000 });
    const href = within(counts).getAllByRole('link')[0]?.getAttribute('href') ?? '';
    const [path, query] = href.split('?');
    expect(path).toBe(`/console/${project.id}/wallets`);
    const carried = new URLSearchParams(query);
    expect(carried.get('stage')).toBe('NEW');
    expect(carried.getAll('countries')).toEqual(['DE']);
    expect(carried.getAll('chains')).toEqual(['137', 'x']);
    expect(carried.getAll('walletProviders')).toEqual(['MetaMask']);
  });
});
