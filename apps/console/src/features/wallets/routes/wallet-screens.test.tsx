import type { Wallet } from '@polyflow/contracts/wallets';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { catchCsvDownloads } from '../../../testing/csv-downloads';
import { buildProject, logIn } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render-app';
import { type Answer, data, serveGraphql } from '../../../testing/serve-graphql';

const ADDRESS = `0x${'c3'.repeat(20)}`;

function setUp(path: string, answers: Record<string, Answer>) {
  logIn();
  const project = buildProject();
  const api = serveGraphql([project], answers);
  const view = renderApp(`/console/${project.id}/${path}`);
  return { ...view, api, project };
}

const event = (overrides: Partial<Wallet['sessions'][number]['events'][number]>) => ({
  eventId: 'e',
  time: '2024-05-24T09:00:00.000Z',
  type: 'page_view',
  eventName: null,
  path: '/swap',
  walletAddress: null,
  walletProvider: null,
  chainId: 1,
  txId: null,
  txStage: null,
  txHash: null,
  txTo: null,
  selector: null,
  gasUsed: null,
  effectiveGasPrice: null,
  sigStage: null,
  sigMethod: null,
  errorSource: null,
  errorMessage: null,
  errorCode: null,
  rpcMethod: null,
  incidentId: null,
  gasBalance: null,
  walletNonce: null,
  ...overrides,
});

const wallet: Wallet = {
  address: ADDRESS,
  firstSeen: '2024-04-01T09:00:00.000Z',
  lastSeen: '2024-05-30T09:00:00.000Z',
  firstConnected: '2024-04-01T09:00:00.000Z',
  firstTouch: {
    source: 'discord',
    medium: 'social',
    campaign: 'launch',
    referrer: 'https://discord.com/',
    landingPath: '/swap',
  },
  countries: ['DE'],
  browsers: ['Chrome'],
  providers: ['MetaMask'],
  chains: [1, 137],
  sessionCount: 7,
  transactions: 3,
  failedBeforeSubmission: 0,
  reverted: 1,
  stage: 'POWER',
  gas: [
    {
      chainId: 1,
      gasPaidWei: '1300000000000000',
      gasBurnedWei: '300000000000000',
      burnedShare: null,
      reverted: 1,
      failedBeforeSubmission: 0,
    },
  ],
  sessions: [
    {
      sessionId: 's1',
      startedAt: '2024-05-24T09:00:00.000Z',
      endedAt: '2024-05-24T09:12:00.000Z',
      events: [
        event({ eventId: 'e1' }),
        event({
          eventId: 'e2',
          type: 'tx',
          txId: 'tx-b',
          txStage: 'reverted',
          txHash: `0x${'ab'.repeat(32)}`,
          gasUsed: '30000',
          effectiveGasPrice: '10000000000',
        }),
        event({
          eventId: 'e3',
          type: 'error',
          errorSource: 'wallet',
          errorMessage: 'execution reverted',
          rpcMethod: 'eth_sendTransaction',
          incidentId: 'inc-1',
          gasBalance: '500000000000000000',
          walletNonce: '7',
        }),
      ],
    },
  ],
  olderSessions: null,
};

const session = (sessionId: string, startedAt: string) => ({
  sessionId,
  startedAt,
  endedAt: startedAt,
  events: [event({ eventId: `${sessionId}-e`, time: startedAt })],
});

describe('Wallet page', { timeout: 15_000 }, () => {
  it('shows the profile, the totals with gas burned, and a session timeline linking its incident', async () => {
    const { api, project } = setUp(`wallets/${ADDRESS.toUpperCase().replace('0X', '0x')}`, {
      wallet: data({ wallet }),
    });
    expect(await screen.findByRole('heading', { name: ADDRESS })).toBeTruthy();
    expect(api.lastCallOf('wallet')?.variables).toMatchObject({ projectId: project.id });
    expect(screen.getByText('Power')).toBeTruthy();
    expect(screen.getByText('Gas burned').parentElement?.textContent).toContain('0.0003 ETH');
    expect(screen.getByText('discord / social')).toBeTruthy();
    // Countries by name, as on every screen.
    expect(screen.getByText('Germany')).toBeTruthy();
    expect(screen.getByText('(burned)')).toBeTruthy();
    expect(screen.getByText(/balance 0.5 ETH, nonce 7/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open its incident' }).getAttribute('href')).toBe(
      `/console/${project.id}/errorlogs/inc-1`,
    );
  });

  it('says every timeline event in words: the wallet detected by name, a custom event by its name', async () => {
    const events = [
      event({ eventId: 'd', type: 'wallet_detected', path: null, walletProvider: 'Rabby Wallet' }),
      event({ eventId: 'c', type: 'custom', path: '/swap', eventName: 'quote_requested' }),
      event({ eventId: 'n', type: 'chain_changed', path: null, chainId: 137 }),
    ];
    setUp(`wallets/${ADDRESS}`, {
      wallet: data({ wallet: { ...wallet, sessions: [{ ...wallet.sessions[0], events }] } }),
    });
    const lines = within(await screen.findByRole('list', { name: /Session of/ }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(lines).toEqual([
      expect.stringContaining('Wallet detected: Rabby Wallet'),
      expect.stringContaining('Custom event quote_requested'),
      expect.stringContaining('Switched to Polygon'),
    ]);
    expect(screen.queryByText('Custom')).toBeNull();
  });

  it('loads older sessions on demand, page after page, until the oldest', async () => {
    const pages: Record<string, Record<string, unknown>> = {
      'cursor-1': { sessions: [session('s0', '2024-04-20T09:00:00.000Z')], nextCursor: 'cursor-2' },
      'cursor-2': { sessions: [session('s-1', '2024-04-01T09:00:00.000Z')], nextCursor: null },
    };
    const { api, project } = setUp(`wallets/${ADDRESS}`, {
      wallet: data({ wallet: { ...wallet, olderSessions: 'cursor-1' } }),
      walletSessions: (variables) => data({ walletSessions: pages[String(variables.after)] }),
    });
    const button = await screen.findByRole('button', { name: 'Older sessions' });
    // Nothing older is asked before the button is pressed.
    expect(api.callsOf('walletSessions')).toHaveLength(0);
    button.click();
    expect(await screen.findByRole('list', { name: /Session of 20 Apr 2024/ })).toBeTruthy();
    expect(api.lastCallOf('walletSessions')?.variables).toEqual({
      projectId: project.id,
      address: ADDRESS,
      after: 'cursor-1',
    });
    (await screen.findByRole('button', { name: 'Older sessions' })).click();
    expect(await screen.findByRole('list', { name: /Session of 1 Apr 2024/ })).toBeTruthy();
    expect(api.lastCallOf('walletSessions')?.variables.after).toBe('cursor-2');
    // The oldest page: no more button; the sessions of every page in order, newest first.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Older sessions' })).toBeNull());
    expect(screen.getByText('The latest 3 of 7 sessions, newest first.')).toBeTruthy();
  });

  it('offers no older sessions when the page holds them all', async () => {
    setUp(`wallets/${ADDRESS}`, { wallet: data({ wallet }) });
    expect(await screen.findByRole('heading', { name: ADDRESS })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Older sessions' })).toBeNull();
  });

  it('counts a wallet of one session in the singular', async () => {
    setUp(`wallets/${ADDRESS}`, { wallet: data({ wallet: { ...wallet, sessionCount: 1 } }) });
    expect(await screen.findByRole('heading', { name: ADDRESS })).toBeTruthy();
    expect(screen.getByText('Transactions').parentElement?.textContent).toContain('1 session');
    expect(screen.getByText('Transactions').parentElement?.textContent).not.toContain('1 sessions');
  });

  it('says when the project never saw the wallet, and when the address is not one', async () => {
    setUp(`wallets/0x${'9'.repeat(40)}`, { wallet: data({ wallet: null }) });
    expect(await screen.findByText('Wallet not seen')).toBeTruthy();
  });

  it('refuses a malformed address without asking the server', async () => {
    const { api } = setUp('wallets/0x123', {});
    expect(await screen.findByText('Not a wallet address')).toBeTruthy();
    expect(api.callsOf('wallet')).toHaveLength(0);
  });
});

const row = {
  address: ADDRESS,
  firstSeen: '2024-04-01T09:00:00.000Z',
  lastSeen: '2024-05-30T09:00:00.000Z',
  transactions: 3,
  failed: 1,
  gasPaidWei: '16300000000000000',
  stage: 'POWER',
  source: 'discord',
  campaign: 'launch',
};

describe('Wallets list', { timeout: 15_000 }, () => {
  it('lists the wallets with links, and asks the server again for a stage and a sort', async () => {
    const { api, project, user } = setUp('wallets', {
      wallets: data({ wallets: { asOf: '2024-05-31', powerThreshold: 5, nextCursor: null, rows: [row] } }),
    });
    const table = await screen.findByRole('table');
    const link = within(table).getByRole('link', { name: /0xc3c3/ });
    expect(link.getAttribute('href')).toBe(`/console/${project.id}/wallets/${ADDRESS}`);
    expect(within(table).getByText('discord / launch')).toBeTruthy();
    // The gas column says what it adds up: each chain's native coin, not wei, over all chains.
    expect(within(table).getByText('native units, all chains')).toBeTruthy();
    expect(screen.queryByText(/Gas paid in wei/)).toBeNull();
    expect(
      screen.getByText(/fees in its own native coin \(ETH, POL, BNB…\) across the wallet's chains/),
    ).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Stage'), 'AT_RISK');
    await waitFor(() => expect(api.lastCallOf('wallets')?.variables).toMatchObject({ stage: 'AT_RISK' }));
    await user.click(await screen.findByRole('button', { name: 'Gas paid' }));
    await waitFor(() =>
      expect(api.lastCallOf('wallets')?.variables).toMatchObject({ sort: 'gas_paid', descending: true }),
    );
  });

  it('keeps the table and its focused header while another sort loads (aria-busy), then says how many', async () => {
    let release: () => void = () => {};
    const answer = data({
      wallets: { asOf: '2024-05-31', powerThreshold: 5, nextCursor: null, rows: [row] },
    });
    const { user } = setUp('wallets', {
      wallets: (variables) =>
        variables.sort === 'transactions'
          ? new Promise((resolve) => {
              release = () => resolve(answer);
            })
          : answer,
    });
    const table = await screen.findByRole('table');
    const header = within(table).getByRole('button', { name: 'Transactions' });
    header.focus();
    await user.keyboard('{Enter}');
    // While the new order loads, the same table stays, busy, with focus on the header pressed.
    await waitFor(() => expect(table.closest('[aria-busy="true"]')).not.toBeNull());
    expect(table.isConnected).toBe(true);
    expect(document.activeElement).toBe(header);
    release();
    await waitFor(() => expect(table.closest('[aria-busy="true"]')).toBeNull());
    expect(document.activeElement).toBe(header);
    await waitFor(() => expect(screen.getByTestId('announcer').textContent).toBe('1 wallet'));
  });

  it('shows each wallet as a card on a phone, with every figure, and sorts from a menu', async () => {
    const { api, project, user } = setUp('wallets', {
      wallets: data({ wallets: { asOf: '2024-05-31', powerThreshold: 5, nextCursor: null, rows: [row] } }),
    });
    const list = await screen.findByRole('list', { name: 'Wallets' });
    const card = within(list).getByRole('listitem');
    expect(
      within(card)
        .getByRole('link', { name: /0xc3c3/ })
        .getAttribute('href'),
    ).toBe(`/console/${project.id}/wallets/${ADDRESS}`);
    const figure = (term: string) => within(card).getByText(term).nextElementSibling?.textContent;
    expect(figure('Failed')).toBe('1');
    // Native units summed over chains (wei / 10^18 of each chain's coin), and labelled so.
    expect(figure('Gas paid')).toBe('0.0163 (native units, all chains)');
    expect(figure('Source / campaign')).toBe('discord / launch');
    const sortBy = screen.getByLabelText('Sort by');
    sortBy.focus();
    await user.selectOptions(sortBy, 'gas_paid:asc');
    await waitFor(() =>
      expect(api.lastCallOf('wallets')?.variables).toMatchObject({ sort: 'gas_paid', descending: false }),
    );
    // The menu stays in place (no loader in its stead), so focus stays on it for the next arrow key.
    expect(screen.getByLabelText('Sort by')).toBe(sortBy);
    expect(document.activeElement).toBe(sortBy);
  });

  it('takes the Analytics filters from the URL: asks for them, shows them as chips, names them in the CSV', async () => {
    const downloads = catchCsvDownloads();
    const { api, user } = setUp('wallets?stage=POWER&countries=FR&chains=137', {
      wallets: data({ wallets: { asOf: '2024-05-31', powerThreshold: 5, nextCursor: null, rows: [row] } }),
    });
    await screen.findByRole('table');
    expect(api.lastCallOf('wallets')?.variables).toMatchObject({
      stage: 'POWER',
      filters: { countries: ['FR'], chains: [137] },
    });
    const chips = screen.getByRole('region', { name: 'Filters' });
    expect(
      within(chips)
        .getAllByTestId('filter-chip')
        .map((chip) => chip.textContent),
    ).toEqual(['Country: France', 'Chain: Polygon']);
    expect(screen.getByTestId('filtered-note-list')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Download CSV: Wallets' }));
    const [file] = await downloads.take();
    expect(file?.records[0]?.at(-1)).toBe('Filters');
    expect(file?.records[1]?.at(-1)).toBe('Country: France; Chain: Polygon');
    // Removing a chip asks again without it; the stage stays.
    await user.click(screen.getByRole('button', { name: 'Remove filter Country: France' }));
    await waitFor(() =>
      expect(api.lastCallOf('wallets')?.variables).toMatchObject({
        stage: 'POWER',
        filters: { chains: [137] },
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(api.lastCallOf('wallets')?.variables?.filters).toBeUndefined());
    expect(screen.queryByTestId('filtered-note-list')).toBeNull();
  });
});
