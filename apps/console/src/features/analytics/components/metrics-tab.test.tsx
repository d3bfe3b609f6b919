import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { catchCsvDownloads } from '../../../testing/csv-downloads';
import { buildProject, logIn } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render-app';
import { data, graphqlError, serveGraphql } from '../../../testing/serve-graphql';
import { analyticsAnswers } from '../testing/builders';

const card = async (title: string) =>
  (await screen.findByRole('heading', { name: title })).closest('section') as HTMLElement;

// The first test of a file also loads the lazy screen and chart chunks.
/** A phone may wrap it only at its seams (<wbr>), never inside a word (break-all, wrap-anywhere). */
const wrapsAtSeams = (element: Element) => {
  for (let node: Element | null = element; node; node = node.parentElement) {
    expect(node.className.toString()).not.toMatch(/break-all|wrap-anywhere/);
    if (node.tagName === 'TABLE') break;
  }
  expect(element.querySelector('wbr')).not.toBeNull();
};

describe('Metrics tab', { timeout: 15_000 }, () => {
  it('says so when a period has no transactions', async () => {
    logIn();
    const project = buildProject();
    serveGraphql([project], {
      ...analyticsAnswers,
      averageGasPrice: data({
        averageGasPrice: [{ from: '2025-06-01T00:00:00.000Z', to: '2025-06-02T00:00:00.000Z', value: null }],
      }),
    });
    renderApp(`/console/${project.id}/analytics`);
    // Each card says what is missing in its own words: a wallet provider is not a transaction.
    for (const [title, empty] of [
      ['Average gas price paid', 'No mined transactions in this period'],
      ['Most executed contract functions', 'No contract calls in this period'],
      ['Wallet providers', 'No wallet connected in this period'],
      ['Countries', 'No visitors in this period'],
      ['Browsers', 'No visitors in this period'],
      ['Top pages', 'No page views in this period'],
      ['Top referrers', 'No visits in this period'],
    ] as const) {
      const section = await card(title);
      await waitFor(() => expect(within(section).getByText(empty)).toBeTruthy());
    }
    expect(
      within(await card('Failed transactions')).getByText('No failed transactions in this period'),
    ).toBeTruthy();
  });

  it('lists the most executed contract functions with shortened contracts', async () => {
    logIn();
    const project = buildProject();
    serveGraphql([project], {
      ...analyticsAnswers,
      contractFunctions: data({
        contractFunctions: [
          {
            chainId: 1,
            contract: '0x7a250d5630b4cf539739df2c5dacb4c659f2488d',
            selector: '0x7ff36ab5',
            functionName: 'swapExactETHForTokens(uint256,address[],address,uint256)',
            calls: 1234,
          },
          {
            chainId: 137,
            contract: '0xdac17f958d2ee523a2206206994597c13d831ec7',
            selector: '0x12345678',
            functionName: null,
            calls: 7,
          },
        ],
      }),
    });
    renderApp(`/console/${project.id}/analytics`);
    const functions = await card('Most executed contract functions');
    await waitFor(() => expect(within(functions).getAllByRole('row')).toHaveLength(3));
    const rows = within(functions).getAllByRole('row').slice(1);
    expect(
      within(rows[0] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['0x7a25…488dEthereum', 'swapExactETHForTokens', '1,234']);
    wrapsAtSeams(within(rows[0] as HTMLElement).getAllByRole('cell')[1] as HTMLElement);
    expect(
      within(rows[1] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['0xdac1…1ec7Polygon', '0x12345678', '7']);
  });

  it('draws share charts with a legend of counts and shares, unknown last as the server sends it', async () => {
    logIn();
    const project = buildProject();
    serveGraphql([project], {
      ...analyticsAnswers,
      walletProviders: data({
        walletProviders: [
          { key: 'MetaMask', value: 3000 },
          { key: null, value: 1000 },
        ],
      }),
    });
    renderApp(`/console/${project.id}/analytics`);
    const legend = await within(await card('Wallet providers')).findByRole('list', {
      name: 'Connected wallets by share',
    });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['MetaMask3,00075%', 'Unknown1,00025%']);
  });

  it('names devices as the other charts name browsers, and says what a missing source or referrer is', async () => {
    logIn();
    const project = buildProject();
    serveGraphql([project], {
      ...analyticsAnswers,
      devices: data({
        devices: [
          { key: 'desktop', value: 30 },
          { key: 'mobile', value: 10 },
        ],
      }),
      sources: data({
        sources: [
          { key: null, value: 16 },
          { key: 'twitter', value: 4 },
        ],
      }),
    });
    const downloads = catchCsvDownloads();
    const { user } = renderApp(`/console/${project.id}/analytics`);
    const devices = await within(await card('Devices')).findByRole('list', { name: 'Users by share' });
    expect(
      within(devices)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Desktop3075%', 'Mobile1025%']);
    // Users whose sessions carried no utm_source: not "Unknown", and not the referrers' "Direct".
    const sources = await card('Sources');
    await user.click(await within(sources).findByRole('button', { name: 'Download CSV: Sources' }));
    const [file] = await downloads.take();
    expect(file?.records.map((record) => record[0])).toEqual(['utm_source', 'No UTM source', 'twitter']);
  });

  it('names each chart and gives its values as text: a summary, a table, a donut that is no tab stop', async () => {
    logIn();
    const project = buildProject();
    const day = (date: string, value: number | null) => ({
      from: `2026-11-${date}T00:00:00.000Z`,
      to: `2026-11-${String(Number(date) + 1).padStart(2, '0')}T00:00:00.000Z`,
      value,
    });
    serveGraphql([project], {
      ...analyticsAnswers,
      failedTransactions: data({ failedTransactions: [day('12', 4), day('13', 31), day('14', 0)] }),
      averageGasPrice: data({ averageGasPrice: [day('12', 12e9), day('13', null), day('14', 40e9)] }),
      walletProviders: data({
        walletProviders: [
          { key: 'MetaMask', value: 3000 },
          { key: null, value: 1000 },
        ],
      }),
    });
    const { user } = renderApp(`/console/${project.id}/analytics`);
    const failed = await card('Failed transactions');
    expect(
      await within(failed).findByRole('img', {
        name: 'Failed transactions: 35 in all, most on 13 Nov (31)',
      }),
    ).toBeTruthy();
    await user.click(within(failed).getByText('Show as table'));
    const rows = within(within(failed).getByRole('table', { name: 'Failed transactions' })).getAllByRole(
      'row',
    );
    expect(rows.map((row) => row.textContent)).toEqual([
      'PeriodFailed transactions',
      expect.stringMatching(/^12 Nov.*4$/),
      expect.stringMatching(/^13 Nov.*31$/),
      expect.stringMatching(/^14 Nov.*0$/),
    ]);
    const gas = await card('Average gas price paid');
    expect(
      await within(gas).findByRole('img', {
        name: 'Average gas price paid: 12 gwei to 40 gwei, highest on 14 Nov (40 gwei)',
      }),
    ).toBeTruthy();
    expect(within(gas).getByRole('table', { hidden: true }).textContent).toContain('—');

    const providers = await card('Wallet providers');
    expect(
      await within(providers).findByRole('img', {
        name: 'Wallet providers, donut chart: MetaMask 3,000 (75%), Unknown 1,000 (25%)',
      }),
    ).toBeTruthy();
    // No chart adds a tab stop of its own (recharts' role=application layer, the pie's g).
    expect(document.querySelector('[role="application"]')).toBeNull();
    for (const section of [failed, gas, providers])
      for (const element of section.querySelectorAll<HTMLElement>('svg [tabindex], svg[tabindex]'))
        expect(element.tabIndex).toBeLessThan(0);
  });

  it('shows an error with a retry on a chart whose query failed, leaving the others alone', async () => {
    logIn();
    const project = buildProject();
    let fail = true;
    const answerCountries = () =>
      fail
        ? graphqlError('Something broke.', 'INTERNAL_ERROR', 500)
        : data({ countries: [{ key: 'US', value: 12 }] });
    const api = serveGraphql([project], { ...analyticsAnswers, countries: answerCountries });
    const { user } = renderApp(`/console/${project.id}/analytics`);
    const alert = await within(await card('Countries')).findByRole('alert');
    expect(alert.textContent).toContain('Could not load this chart: Something broke.');
    expect(within(await card('Browsers')).getByText('No visitors in this period')).toBeTruthy();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    const countries = await card('Countries');
    await waitFor(() => expect(within(countries).queryByRole('alert')).toBeNull());
    expect(api.callsOf('countries')).toHaveLength(2);
    // Every country (the server's maximum), so that "Other" and the shares are of the whole.
    expect(api.callsOf('countries')[0]?.variables.limit).toBe(250);
  });

  it('lists the top pages and referrers of the period, direct visits by name', async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], {
      ...analyticsAnswers,
      topPages: data({
        topPages: [
          { path: '/swap', users: 1200, wallets: 300, transactions: 95 },
          { path: '/pool', users: 40, wallets: 2, transactions: 0 },
        ],
      }),
      topReferrers: data({
        topReferrers: [
          { domain: 'twitter.com', users: 700, wallets: 120, transactions: 40 },
          { domain: null, users: 500, wallets: 90, transactions: 55 },
        ],
      }),
    });
    renderApp(`/console/${project.id}/analytics`);
    const pages = await card('Top pages');
    const swap = await within(pages).findByRole('row', { name: /\/swap/ });
    expect(
      within(swap)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
      // The users cell repeats the share for phones (its Share column is hidden below sm).
    ).toEqual(['1,20096.8%', '96.8%', '300', '95']);
    const referrers = await card('Top referrers');
    const twitter = await within(referrers).findByRole('row', { name: /twitter\.com/ });
    wrapsAtSeams(
      within(twitter).getByText((_, element) => element?.textContent === 'twitter.com', { selector: 'span' }),
    );
    const direct = await within(referrers).findByRole('row', { name: /Direct \(no referrer\)/ });
    expect(
      within(direct)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['50041.7%', '41.7%', '90', '55']);
    // The period applies: both are asked for the screen's range.
    const [asked] = api.callsOf('topPages');
    expect(asked?.variables).toMatchObject({ projectId: project.id, limit: 100 });
    expect(api.callsOf('topReferrers')[0]?.variables.from).toBe(asked?.variables.from);
  });

  it('folds the slices past the eighth into Other, shows all on request, with shares of the whole', async () => {
    logIn();
    const project = buildProject();
    const codes = ['US', 'DE', 'FR', 'GB', 'JP', 'BR', 'IN', 'CA', 'ES', 'IT'];
    // 2,574 users in all, as in the issue: the US's 704 are 27 % of them, not 38 % of the eight shown.
    const values = [704, 400, 300, 250, 220, 200, 180, 160, 90, 70];
    const providers = [
      'MetaMask',
      'Rabby Wallet',
      'Coinbase',
      'Trust',
      'Phantom',
      'Rainbow',
      'OKX',
      'Zerion',
      'Frame',
      'Taho',
    ];
    serveGraphql([project], {
      ...analyticsAnswers,
      countries: data({ countries: codes.map((key, index) => ({ key, value: values[index] })) }),
      walletProviders: data({
        walletProviders: providers.map((key, index) => ({ key, value: values[index] })),
      }),
    });
    const downloads = catchCsvDownloads();
    const { user } = renderApp(`/console/${project.id}/analytics`);

    const legend = await within(await card('Wallet providers')).findByRole('list', {
      name: 'Connected wallets by share',
    });
    const items = within(legend)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toHaveLength(9);
    expect(items[0]).toBe('MetaMask70427.4%');
    expect(items[8]).toBe('Other (2 more)1606.2%');

    const countries = await card('Countries');
    await user.click(within(countries).getByRole('button', { name: 'Show all (10) Countries' }));
    const dialog = await screen.findByRole('dialog', { name: 'Countries: all 10' });
    const rows = within(dialog).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(10);
    expect(rows.map((row) => row.textContent)).toContain('Italy702.7%');
    expect(rows[0]?.textContent).toBe('United States70427.4%');
    await user.keyboard('{Escape}');

    await user.click(within(countries).getByRole('button', { name: 'Download CSV: Countries' }));
    const [file] = await downloads.take();
    expect(file?.records).toHaveLength(11);
    expect(file?.records[1]?.slice(0, 3)).toEqual(['United States', 'US', '704']);
    expect(Number(file?.records[1]?.[3])).toBeCloseTo(704 / 2574, 6);
  });

  it('folds the table rows past the tenth into Other, and lists them all on request', async () => {
    logIn();
    const project = buildProject();
    const functions = Array.from({ length: 12 }, (_, index) => ({
      chainId: 1,
      contract: `0x${String(index).padStart(40, '0')}`,
      selector: `0x${String(index).padStart(8, '0')}`,
      functionName: null,
      calls: 100 - index,
    }));
    const pages = Array.from({ length: 11 }, (_, index) => ({
      path: `/page-${index}`,
      users: 50 - index,
      wallets: 5,
      transactions: 2,
    }));
    serveGraphql([project], {
      ...analyticsAnswers,
      contractFunctions: data({ contractFunctions: functions }),
      topPages: data({ topPages: pages }),
    });
    const { user } = renderApp(`/console/${project.id}/analytics`);

    const functionsCard = await card('Most executed contract functions');
    await waitFor(() => expect(within(functionsCard).getAllByRole('row')).toHaveLength(12));
    const other = within(functionsCard).getAllByRole('row').at(-1) as HTMLElement;
    // The two least called: 89 + 90 calls.
    expect(other.textContent).toBe('Other (2 more)179');

    const pagesCard = await card('Top pages');
    const otherPages = await within(pagesCard).findByRole('row', { name: /Other \(1 more\) pages/ });
    // Users of different pages do not add up; transactions do.
    expect(
      within(otherPages)
        .getAllByRole('cell')
        .map((cell) => cell.textContent?.slice(0, 1)),
    ).toEqual(['—', '8', '—', '2']);
    // Its share is of every page's users: 40 of the 495 users of the 11 pages.
    expect(within(otherPages).getAllByRole('cell')[1]?.textContent).toBe('8.1%');

    await user.click(
      within(functionsCard).getByRole('button', { name: 'Show all (12) Most executed contract functions' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Most executed contract functions: all 12' });
    expect(within(dialog).getAllByRole('row')).toHaveLength(13);
    expect(within(dialog).getByText(/Shares of all 1,134 calls/)).toBeTruthy();
  });
});
