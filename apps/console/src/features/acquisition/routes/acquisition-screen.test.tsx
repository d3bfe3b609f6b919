import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { resolvePeriod } from '../../../components/ui/periods';
import { buildProject, logIn } from '../../../testing/fixtures';
import { json } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { type Answer, data, graphqlError, serveGraphql } from '../../../testing/serve-graphql';
import { buildAttributionRow, buildFilterOptions, buildFunnel } from '../testing/builders';

const campaignRows = [
  buildAttributionRow('total', null, {
    newWallets: 9,
    connects: 30,
    transactions: 21,
    sessions: 100,
    users: 80,
  }),
  buildAttributionRow('value', 'TwitterAds-1', {
    newWallets: 5,
    connects: 12,
    transactions: 4,
    sessions: 50,
    users: 40,
  }),
  buildAttributionRow('value', 'AdWords-3', {
    newWallets: 1,
    connects: 8,
    transactions: 15,
    sessions: 30,
    users: 25,
  }),
  buildAttributionRow('unattributed', null, {
    newWallets: 3,
    connects: 10,
    transactions: 2,
    sessions: 20,
    users: 15,
  }),
];
const sourceRows = [
  buildAttributionRow('total', null, {
    newWallets: 9,
    connects: 30,
    transactions: 21,
    sessions: 100,
    users: 80,
  }),
  buildAttributionRow('value', 'twitter', {
    newWallets: 6,
    connects: 20,
    transactions: 19,
    sessions: 70,
    users: 60,
  }),
  buildAttributionRow('unattributed', null, {
    newWallets: 3,
    connects: 10,
    transactions: 2,
    sessions: 30,
    users: 20,
  }),
];

const answers: Record<string, Answer> = {
  acquisitionFunnel: data({ acquisitionFunnel: buildFunnel(200, [150, 90, 45, 12, 30]) }),
  acquisitionFilterOptions: data({ acquisitionFilterOptions: buildFilterOptions() }),
  attribution: (variables) =>
    data({
      attribution: {
        dimension: variables.dimension,
        from: variables.from,
        to: variables.to,
        rows: variables.dimension === 'source' ? sourceRows : campaignRows,
      },
    }),
};

function setUp(path = '', overrides: Record<string, Answer> = {}) {
  logIn();
  const project = buildProject();
  const api = serveGraphql([project], { ...answers, ...overrides });
  const view = renderApp(`/console/${project.id}/acquisition${path}`);
  return { ...view, api, project };
}

const tile = (label: string) => screen.getByRole('listitem', { name: label });
const table = () => screen.getByRole('table');
/** The first cell of each body row: the row names in display order. */
const rowNames = () =>
  within(table())
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent);

describe('Acquisition: User behavior', { timeout: 15_000 }, () => {
  it('shows the six funnel tiles with counts and shares of Total Users, for the last 30 days', async () => {
    const { api, project } = setUp();
    await waitFor(() => expect(tile('Total Users').textContent).toContain('200'));
    expect(tile('Total Users').textContent).toContain('100% of Total Users');
    expect(tile('Have Wallets').textContent).toContain('150');
    expect(tile('Have Wallets').textContent).toContain('75% of Total Users');
    expect(tile('Have Connected Wallet').textContent).toContain('45% of Total Users');
    expect(tile('Have Executed a Transaction').textContent).toContain('22.5% of Total Users');
    expect(tile('Have Executed Multiple TXs').textContent).toContain('6% of Total Users');
    expect(tile('Signed Data').textContent).toContain('30');
    expect(tile('Signed Data').textContent).toContain('15% of Total Users');

    const expected = resolvePeriod({ kind: 'preset', id: '30d' });
    expect(api.lastCurrentCallOf('acquisitionFunnel')?.variables).toEqual({
      projectId: project.id,
      from: expected.from,
      to: expected.to,
      filters: {},
      previous: false,
    });
  });

  it('sends a location filter to the server for the funnel and the table, and keeps it in the URL', async () => {
    const { api, user, location } = setUp();
    await waitFor(() => expect(tile('Total Users').textContent).toContain('200'));
    await user.click(screen.getByRole('button', { name: 'Location: Any' }));
    await user.click(screen.getByRole('checkbox', { name: /Germany/ }));

    await waitFor(() =>
      expect(api.lastCurrentCallOf('acquisitionFunnel')?.variables.filters).toEqual({ countries: ['DE'] }),
    );
    expect(api.lastCurrentCallOf('attribution')?.variables.filters).toEqual({ countries: ['DE'] });
    expect(location()).toContain('countries=DE');
    expect(screen.getByRole('button', { name: 'Location: Germany' })).toBeTruthy();
  });

  it('reads a shared view from the URL and adds filters with + Add filter', async () => {
    const { api, user, location } = setUp('?countries=US&terms=wallet&tab=source');
    await waitFor(() =>
      expect(api.lastCurrentCallOf('acquisitionFunnel')?.variables.filters).toEqual({
        countries: ['US'],
        terms: ['wallet'],
      }),
    );
    expect(api.lastCurrentCallOf('attribution')?.variables.dimension).toBe('source');

    await user.click(screen.getByRole('button', { name: 'Add filter' }));
    await user.click(screen.getByRole('button', { name: 'Source' }));
    await user.click(screen.getByRole('button', { name: 'Source: Any' }));
    await user.click(screen.getByRole('checkbox', { name: /twitter/ }));
    await waitFor(() =>
      expect(api.lastCurrentCallOf('acquisitionFunnel')?.variables.filters).toEqual({
        countries: ['US'],
        terms: ['wallet'],
        sources: ['twitter'],
      }),
    );
    expect(location()).toContain('sources=twitter');

    await user.click(screen.getByRole('button', { name: 'Remove Source filter' }));
    await waitFor(() => expect(location()).not.toContain('sources='));
  });

  it('keeps focus in the filter bar when filters are added, closed with Escape, removed and cleared', async () => {
    const { user, location } = setUp('?countries=US');
    const announcer = () => screen.getByTestId('announcer').textContent;
    const addFilter = await screen.findByRole('button', { name: 'Add filter' });

    // Escape on an item of the menu: back to Add filter.
    addFilter.focus();
    await user.keyboard('{Enter}');
    screen.getByRole('button', { name: 'Medium' }).focus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('button', { name: 'Medium' })).toBeNull();
    expect(document.activeElement).toBe(addFilter);

    // Picking an item: the new filter's chip.
    await user.keyboard('{Enter}');
    screen.getByRole('button', { name: 'Source' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Source: Any' })),
    );
    await waitFor(() => expect(announcer()).toBe('Filter Source added; choose its values'));
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('checkbox', { name: /twitter/ }));
    await waitFor(() => expect(location()).toContain('sources=twitter'));
    await waitFor(() => expect(announcer()).toBe('Filter Source: twitter added'));
    await user.keyboard('{Escape}');

    // Removing it: the chip before it (Term), as there is none after it.
    screen.getByRole('button', { name: 'Remove Source filter' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location()).not.toContain('sources='));
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Term: Any'));
    await waitFor(() => expect(announcer()).toBe('Filter Source removed'));

    // Clear filters: the bar's heading.
    screen.getByRole('button', { name: 'Clear filters' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location()).not.toContain('countries='));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Filters' })),
    );
    await waitFor(() => expect(announcer()).toBe('Filters cleared'));
  });

  it('says so when no user matches the filters', async () => {
    setUp('?countries=FR', {
      acquisitionFunnel: data({ acquisitionFunnel: buildFunnel(0, [0, 0, 0, 0, 0]) }),
    });
    expect(await screen.findByText('No users match these filters in this period.')).toBeTruthy();
    expect(tile('Have Wallets').textContent).toContain('—');
  });

  it('shows the server error and loads again on Try again', async () => {
    let attempts = 0;
    const failOnce: Answer = () => {
      attempts += 1;
      return attempts === 1
        ? graphqlError('Invalid range.')
        : data({ acquisitionFunnel: buildFunnel(7, [1, 1, 1, 1, 1]) });
    };
    const { user } = setUp('', { acquisitionFunnel: failOnce });
    expect(await screen.findByText(/Could not load the funnel: Invalid range\./)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(tile('Total Users').textContent).toContain('7'));
  });
});

describe('Acquisition: Attributions', { timeout: 15_000 }, () => {
  it("adds a picked goal's conversions as a column, per row (Total, values, Unattributed)", {
    timeout: 30_000,
  }, async () => {
    logIn();
    const project = buildProject();
    const goal = {
      id: 'g1',
      name: 'Signed up',
      kind: 'event',
      eventName: 'signup',
      propertyKey: null,
      propertyValue: null,
      pathPattern: null,
      createdBy: 'owner@example.com',
      createdAt: '2025-06-01T00:00:00.000Z',
    };
    const api = serveGraphql(
      [project],
      {
        ...answers,
        goalAttribution: data({
          goalAttribution: {
            goal: { id: 'g1', name: 'Signed up' },
            rows: [
              { isTotal: true, value: null, conversions: 9 },
              { isTotal: false, value: 'TwitterAds-1', conversions: 7 },
              { isTotal: false, value: null, conversions: 2 },
            ],
          },
        }),
      },
      { [`GET /projects/${project.id}/goals`]: json(200, { goals: [goal] }) },
    );
    renderApp(`/console/${project.id}/acquisition`);
    await waitFor(() => expect(rowNames()).toEqual(['Total', 'TwitterAds-1', 'AdWords-3', 'Unattributed']), {
      timeout: 15_000,
    });
    const picker = screen.getByLabelText('Goal column');
    await waitFor(() => expect((picker as HTMLSelectElement).disabled).toBe(false));
    expect(api.callsOf('goalAttribution')).toEqual([]);
    await userEvent.setup().selectOptions(picker, 'Signed up');
    await waitFor(() =>
      expect(
        within(table())
          .getAllByTestId('goal-conversions')
          .map((cell) => cell.textContent),
      ).toEqual(['9', '7', '0', '2']),
    );
    expect(within(table()).getByRole('columnheader', { name: 'Goal: Signed up' })).toBeTruthy();
    expect(api.lastCallOf('goalAttribution')?.variables).toMatchObject({
      goalId: 'g1',
      dimension: 'campaign',
    });
  });

  it('lists Total, one row per campaign and Unattributed, with every column', async () => {
    setUp();
    await waitFor(() => expect(rowNames()).toEqual(['Total', 'TwitterAds-1', 'AdWords-3', 'Unattributed']));
    const headers = within(table())
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual([
      'Campaigns',
      '+ Wallets',
      'Connects',
      'TXS',
      'TX(S) %',
      'TX(U) %',
      'WConn(S) %',
      'WConn(U) %',
    ]);
    const twitter = within(table()).getByRole('row', { name: /TwitterAds-1/ });
    // + Wallets 5, Connects 12, TXS 4, TX(S) 4/50, TX(U) 4/40, WConn(S) 12/50, WConn(U) 12/40.
    // Each rate has the previous period's under it (here the same answer): the figure itself comes first.
    expect(
      within(twitter)
        .getAllByRole('cell')
        .map((cell) => cell.textContent?.replace(/previous period.*$/, '')),
    ).toEqual(['5', '12', '4', '8%', '10%', '24%', '30%']);
    // On a phone each cell's label ("WConn(U) %") stays on one line: no "WConn(U)" over a lone "%".
    for (const cell of within(twitter).getAllByRole('cell')) {
      expect(cell.className).toContain('max-sm:before:whitespace-nowrap');
    }
    expect(screen.getByRole('tab', { name: 'Campaign' }).getAttribute('aria-selected')).toBe('true');
  });

  it('switches the grouping with the tabs, by click and by arrow key', async () => {
    const { api, user, location } = setUp();
    await waitFor(() => expect(rowNames()).toContain('TwitterAds-1'));
    expect(api.lastCurrentCallOf('attribution')?.variables.dimension).toBe('campaign');

    await user.click(screen.getByRole('tab', { name: 'Source' }));
    await waitFor(() => expect(rowNames()).toEqual(['Total', 'twitter', 'Unattributed']));
    expect(api.lastCurrentCallOf('attribution')?.variables.dimension).toBe('source');
    expect(within(table()).getAllByRole('columnheader')[0]?.textContent).toBe('Sources');
    expect(location()).toContain('tab=source');

    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(api.lastCurrentCallOf('attribution')?.variables.dimension).toBe('medium'));
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Medium' }));
    expect(within(table()).getAllByRole('columnheader')[0]?.textContent).toBe('Mediums');
  });

  it('sets the range of both cards with the one period control: chips and custom dates', async () => {
    const { api, user, location } = setUp();
    await waitFor(() => expect(rowNames()).toContain('TwitterAds-1'));
    // One control for the page (the console's shared one), not one per card.
    expect(screen.getAllByRole('group', { name: 'Period' })).toHaveLength(1);
    const page = screen.getByRole('main');

    await user.click(within(page).getByRole('button', { name: 'Week' }));
    const week = resolvePeriod({ kind: 'preset', id: '7d' });
    await waitFor(() =>
      expect(api.lastCurrentCallOf('attribution')?.variables).toMatchObject({ from: week.from, to: week.to }),
    );
    expect(api.lastCurrentCallOf('acquisitionFunnel')?.variables).toMatchObject({
      from: week.from,
      to: week.to,
    });
    expect(location()).toContain('period=7d');
    expect(within(page).getByRole('button', { name: 'Week' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(within(page).getByRole('button', { name: 'Yesterday' }));
    const yesterday = resolvePeriod({ kind: 'preset', id: 'yesterday' });
    await waitFor(() => expect(api.lastCurrentCallOf('attribution')?.variables.from).toBe(yesterday.from));

    // A date input changes only with a whole date, as in a browser; Apply range sends it.
    fireEvent.change(within(page).getByLabelText('From'), { target: { value: '2025-01-01' } });
    await user.click(within(page).getByRole('button', { name: 'Apply range' }));
    await waitFor(() =>
      expect(api.lastCurrentCallOf('attribution')?.variables.from).toBe('2025-01-01T00:00:00.000Z'),
    );
    expect(location()).toContain('period=custom');
    expect(location()).toContain('from=2025-01-01');
  });

  it('sorts by every column but the first, with aria-sort, by mouse and keyboard; Total stays on top', async () => {
    const { user, location } = setUp();
    await waitFor(() => expect(rowNames()).toEqual(['Total', 'TwitterAds-1', 'AdWords-3', 'Unattributed']));
    const txsHeader = () => within(table()).getByRole('columnheader', { name: /TXS/ });
    expect(txsHeader().getAttribute('aria-sort')).toBe('none');
    expect(
      within(table()).getByRole('columnheader', { name: 'Campaigns' }).getAttribute('aria-sort'),
    ).toBeNull();
    expect(
      within(within(table()).getByRole('columnheader', { name: 'Campaigns' })).queryByRole('button'),
    ).toBeNull();

    await user.click(within(txsHeader()).getByRole('button'));
    expect(txsHeader().getAttribute('aria-sort')).toBe('descending');
    expect(rowNames()).toEqual(['Total', 'AdWords-3', 'TwitterAds-1', 'Unattributed']);
    expect(location()).toContain('sort=transactions');

    within(txsHeader()).getByRole('button').focus();
    await user.keyboard('{Enter}');
    expect(txsHeader().getAttribute('aria-sort')).toBe('ascending');
    expect(rowNames()).toEqual(['Total', 'Unattributed', 'TwitterAds-1', 'AdWords-3']);

    await user.click(within(table()).getByRole('button', { name: /\+ Wallets/ }));
    expect(rowNames()).toEqual(['Total', 'TwitterAds-1', 'Unattributed', 'AdWords-3']);
    expect(txsHeader().getAttribute('aria-sort')).toBe('none');
  });

  it('explains every column in a legend', async () => {
    setUp();
    await waitFor(() => expect(rowNames()).toContain('TwitterAds-1'));
    expect(screen.getByText('Column definitions')).toBeTruthy();
    expect(screen.getByText('Sessions with a transaction ÷ sessions.')).toBeTruthy();
    expect(screen.getByText('Users with a wallet connection ÷ users.')).toBeTruthy();
  });
});
