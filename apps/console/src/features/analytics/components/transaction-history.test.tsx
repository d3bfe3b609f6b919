import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { catchCsvDownloads } from '../../../testing/csv-downloads';
import { buildProject, logIn } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render-app';
import { data, graphqlError, serveGraphql } from '../../../testing/serve-graphql';
import { analyticsAnswers, buildDetail, buildRow } from '../testing/builders';

const page = (rows: ReturnType<typeof buildRow>[], nextCursor: string | null = null, total = rows.length) =>
  data({ transactionHistory: { rows, nextCursor, total } });

describe('Transaction History', { timeout: 15_000 }, () => {
  it('lists rows under UTC date headings with shortened hash and wallet and only the time', async () => {
    logIn();
    const project = buildProject();
    serveGraphql([project], {
      ...analyticsAnswers,
      transactionHistory: page([
        buildRow({
          id: 'a',
          time: '2025-06-02T00:10:05.000Z',
          hash: '0xaaaa000000000000000000000000000000000000000000000000000000001111',
        }),
        buildRow({
          id: 'b',
          time: '2025-06-01T23:59:59.000Z',
          hash: null,
          status: 'rejected',
          type: 'Coin',
          country: null,
          browser: null,
        }),
        buildRow({ id: 'c', time: '2025-06-01T08:00:00.000Z' }),
      ]),
    });
    renderApp(`/console/${project.id}/analytics?tab=history`);

    const table = await screen.findByRole('table');
    const headings = within(table).getAllByRole('rowheader');
    expect(headings.map((heading) => heading.textContent)).toEqual([
      'Monday, 2 June 2025',
      'Sunday, 1 June 2025',
    ]);
    expect(
      screen.getByText('Newest first. Dates and times are in UTC. 3 of 3 transactions loaded.'),
    ).toBeTruthy();

    const rows = within(table).getAllByRole('row').slice(1); // after the column headers
    const cells = (index: number) =>
      within(rows[index] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    // Row 0 is the first date heading.
    expect(cells(1).slice(0, 7)).toEqual([
      '0xaaaa…1111',
      '00:10:05',
      '0x1111…0000',
      'Contract',
      'Confirmed',
      'Germany',
      'Firefox',
    ]);
    // A refusal and a failure both have no hash: the status column tells them apart.
    expect(cells(3).slice(0, 7)).toEqual([
      'Not sent',
      '23:59:59',
      '0x1111…0000',
      'Coin',
      'Rejected',
      'Unknown',
      'Unknown',
    ]);
    expect(cells(4)[0]).toBe('0xabcd…1234');
    // On a phone each cell is labelled ("Hash", "Wallet"): labels in the text font, only values in code.
    for (const cell of within(rows[1] as HTMLElement)
      .getAllByRole('cell')
      .slice(0, 3)) {
      expect(cell.className).toContain('max-sm:before:font-sans');
    }
  });

  it('loads older pages through the cursor', async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], {
      ...analyticsAnswers,
      transactionHistory: (variables) =>
        variables.after === 'cursor-1'
          ? page(
              [
                buildRow({
                  id: 'old',
                  time: '2025-05-20T10:00:00.000Z',
                  hash: '0xbbbb00000000000000000000000000000000000000000000000000000000bbbb',
                }),
              ],
              null,
              2,
            )
          : page([buildRow({ id: 'new' })], 'cursor-1', 2),
    });
    const { user } = renderApp(`/console/${project.id}/analytics?tab=history`);

    await screen.findByText('0xabcd…1234');
    expect(screen.getByText(/1 of 2 transactions loaded \(Load more for older ones\)/)).toBeTruthy();
    screen.getByRole('button', { name: 'Load more' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('0xbbbb…bbbb')).toBeTruthy();
    expect(screen.getByText('Tuesday, 20 May 2025')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    // The last page is in and Load more is gone: focus is on the first row it brought, and it is said.
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('aria-label')).toBe(
        'Inspect transaction 0xbbbb00000000000000000000000000000000000000000000000000000000bbbb',
      ),
    );
    await waitFor(() => expect(screen.getByTestId('announcer').textContent).toBe('1 more loaded, 2 of 2'));
    expect(api.callsOf('transactionHistory').map((call) => call.variables.after)).toEqual([null, 'cursor-1']);
    expect(api.callsOf('transactionHistory')[0]?.variables.first).toBe(25);
  });

  it('Inspect shows the full transaction with stages, amounts and the explorer link', async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], {
      ...analyticsAnswers,
      transactionHistory: page([buildRow({ id: 'tx-1' })]),
      transaction: data({
        transaction: buildDetail({
          stages: [
            ...buildDetail().stages,
            {
              stage: 'reverted',
              time: '2025-06-01T14:04:00.000Z',
              errorCode: -32000,
              errorMessage: 'execution reverted',
            },
          ],
        }),
      }),
    });
    const { user } = renderApp(`/console/${project.id}/analytics?tab=history`);

    await user.click(await screen.findByRole('button', { name: /Inspect transaction 0xabcdef/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Transaction' });
    await within(dialog).findByText('0.25 ETH');
    expect(api.callsOf('transaction')[0]?.variables).toEqual({ projectId: project.id, id: 'tx-1' });
    expect(within(dialog).getByText(buildRow().hash as string)).toBeTruthy();
    expect(within(dialog).getByText('Ethereum (1)')).toBeTruthy();
    expect(within(dialog).getByText('23.4 gwei')).toBeTruthy();
    expect(within(dialog).getByText('1.5 gwei')).toBeTruthy();
    expect(within(dialog).getByText('160,123')).toBeTruthy();
    expect(within(dialog).getByText('19,876,543')).toBeTruthy();
    expect(within(dialog).getByText('0.0037468782 ETH')).toBeTruthy();
    const link = within(dialog).getByRole('link', { name: /View on block explorer/ });
    expect(link.getAttribute('href')).toBe(buildDetail().explorerUrl);
    const stages = within(within(dialog).getByRole('region', { name: 'Stages' })).getAllByRole('listitem');
    expect(stages.map((stage) => stage.textContent)).toEqual([
      'Requested1 Jun 2025, 14:03:27 UTC',
      'Submitted1 Jun 2025, 14:03:31 UTC',
      'Confirmed1 Jun 2025, 14:03:45 UTC',
      'Reverted1 Jun 2025, 14:04:00 UTCError -32000: execution reverted',
    ]);

    await user.click(within(dialog).getByRole('button', { name: 'Close dialog' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Inspect lists each receipt of a batch mined as two transactions, its fee the sum of theirs', async () => {
    logIn();
    const project = buildProject();
    const hashA = `0x${'a1'.repeat(32)}`;
    const hashB = `0x${'b2'.repeat(32)}`;
    const receipt = (hash: string, blockNumber: string, gasUsed: string, price: string, fee: string) => ({
      hash,
      status: 'confirmed' as const,
      time: '2025-06-01T14:03:45.000Z',
      blockNumber,
      gasUsed,
      effectiveGasPrice: price,
      fee,
      explorerUrl: `https://optimistic.etherscan.io/tx/${hash}`,
    });
    serveGraphql([project], {
      ...analyticsAnswers,
      transactionHistory: page([buildRow({ hash: hashB })]),
      transaction: data({
        transaction: buildDetail({
          hash: hashB,
          chainId: 10,
          gasUsed: '67000',
          effectiveGasPrice: '875000011',
          fee: '64375000553000',
          receipts: [
            receipt(hashA, '120', '46000', '1000000007', '46000000322000'),
            receipt(hashB, '121', '21000', '875000011', '18375000231000'),
          ],
        }),
      }),
    });
    const { user } = renderApp(`/console/${project.id}/analytics?tab=history`);
    await user.click(await screen.findByRole('button', { name: /Inspect transaction/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Transaction' });
    const section = await within(dialog).findByRole('region', { name: 'Receipts (2)' });
    expect(
      within(dialog).getByText('The last of its 2 receipts; each one is listed under Receipts.'),
    ).toBeTruthy();
    // The record's fee, then each receipt's: 0.000046000000322 + 0.000018375000231 ETH.
    expect(within(dialog).getByText('0.000064375000553 ETH')).toBeTruthy();
    const items = within(section).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByText(/^0x/).textContent)).toEqual([hashA, hashB]);
    expect(within(items[0] as HTMLElement).getByText('0.000046000000322 ETH')).toBeTruthy();
    expect(within(items[0] as HTMLElement).getByText('1.000000007 gwei')).toBeTruthy();
    expect(within(items[1] as HTMLElement).getByText('0.000018375000231 ETH')).toBeTruthy();
    expect(within(items[1] as HTMLElement).getByText('121')).toBeTruthy();
    expect(
      within(section)
        .getByRole('link', { name: `View receipt ${hashA} on block explorer` })
        .getAttribute('href'),
    ).toBe(`https://optimistic.etherscan.io/tx/${hashA}`);
    expect(within(section).getByRole('button', { name: `Copy receipt hash ${hashB}` })).toBeTruthy();
  });

  it('Inspect of a batch says what each repeated stage is: one request per call, one receipt each, the batch', async () => {
    logIn();
    const project = buildProject();
    const hashA = `0x${'a1'.repeat(32)}`;
    const hashB = `0x${'b2'.repeat(32)}`;
    const stage = (name: 'requested' | 'submitted' | 'confirmed', time: string) => ({
      stage: name,
      time,
      errorCode: null,
      errorMessage: null,
    });
    const receipt = (hash: string, time: string) => ({
      hash,
      status: 'confirmed' as const,
      time,
      blockNumber: '120',
      gasUsed: '21000',
      effectiveGasPrice: '1000000000',
      fee: '21000000000000',
      explorerUrl: null,
    });
    serveGraphql([project], {
      ...analyticsAnswers,
      transactionHistory: page([buildRow({ hash: hashB })]),
      transaction: data({
        transaction: buildDetail({
          hash: hashB,
          stages: [
            stage('requested', '2026-12-01T18:23:04.100Z'),
            stage('requested', '2026-12-01T18:23:04.100Z'),
            stage('submitted', '2026-12-01T18:23:06.000Z'),
            stage('confirmed', '2026-12-01T18:23:10.000Z'),
            stage('confirmed', '2026-12-01T18:23:12.000Z'),
            stage('confirmed', '2026-12-01T18:23:12.001Z'),
          ],
          receipts: [receipt(hashA, '2026-12-01T18:23:10.000Z'), receipt(hashB, '2026-12-01T18:23:12.000Z')],
        }),
      }),
    });
    const { user } = renderApp(`/console/${project.id}/analytics?tab=history`);
    await user.click(await screen.findByRole('button', { name: /Inspect transaction/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Transaction' });
    const section = await within(dialog).findByRole('region', { name: 'Stages' });
    expect(
      within(section).getByText(
        'A batch of 2 calls (EIP-5792): a Requested stage per call, a Confirmed or Reverted stage per receipt, then the outcome of the whole batch.',
      ),
    ).toBeTruthy();
    expect(
      within(section)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'RequestedCall 1 of 21 Dec 2026, 18:23:04 UTC',
      'RequestedCall 2 of 21 Dec 2026, 18:23:04 UTC',
      'Submitted1 Dec 2026, 18:23:06 UTC',
      'ConfirmedReceipt 0xa1a1…a1a11 Dec 2026, 18:23:10 UTC',
      'ConfirmedReceipt 0xb2b2…b2b21 Dec 2026, 18:23:12 UTC',
      'ConfirmedWhole batch1 Dec 2026, 18:23:12 UTC',
    ]);
  });

  it('Inspect of a transaction with one receipt shows no receipts list', async () => {
    logIn();
    const project = buildProject();
    serveGraphql([project], {
      ...analyticsAnswers,
      transactionHistory: page([buildRow()]),
      transaction: data({ transaction: buildDetail() }),
    });
    const { user } = renderApp(`/console/${project.id}/analytics?tab=history`);
    await user.click(await screen.findByRole('button', { name: /Inspect transaction/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Transaction' });
    await within(dialog).findByText('0.25 ETH');
    expect(within(dialog).queryByRole('region', { name: /Receipts/ })).toBeNull();
  });

  it('Inspect without a known chain shows no explorer link', async () => {
    logIn();
    const project = buildProject();
    serveGraphql([project], {
      ...analyticsAnswers,
      transactionHistory: page([buildRow({ chainId: 31337 })]),
      transaction: data({ transaction: buildDetail({ chainId: 31337, explorerUrl: null }) }),
    });
    const { user } = renderApp(`/console/${project.id}/analytics?tab=history`);
    await user.click(await screen.findByRole('button', { name: /Inspect transaction/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Transaction' });
    await within(dialog).findByText('0.25 ETH');
    expect(within(dialog).queryByRole('link', { name: /View on block explorer/ })).toBeNull();
    // The sender links to its wallet page.
    expect(within(dialog).getByRole('link', { name: /^0x/ }).getAttribute('href')).toMatch(/\/wallets\/0x/);
  });

  it('shows an error with a retry when the history cannot be loaded', async () => {
    logIn();
    const project = buildProject();
    let fail = true;
    const api = serveGraphql([project], {
      ...analyticsAnswers,
      transactionHistory: () =>
        fail ? graphqlError('Invalid arguments.', 'BAD_USER_INPUT', 400) : page([buildRow()]),
    });
    const { user } = renderApp(`/console/${project.id}/analytics?tab=history`);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the transaction history: Invalid arguments.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('0xabcd…1234')).toBeTruthy();
    await waitFor(() => expect(api.callsOf('transactionHistory')).toHaveLength(2));
  });
});

const C1 = `0x${'c1'.repeat(20)}`;
const C2 = `0x${'c2'.repeat(20)}`;
const functions = data({
  contractFunctions: [
    { chainId: 1, contract: C1, selector: '0xa9059cbb', functionName: 'transfer(address,uint256)', calls: 5 },
    { chainId: 1, contract: C2, selector: '0x095ea7b3', functionName: null, calls: 2 },
  ],
});
const lastHistoryCall = (api: ReturnType<typeof serveGraphql>) =>
  api.lastCallOf('transactionHistory')?.variables;

describe('Transaction History search and filters', { timeout: 15_000 }, () => {
  it('searches a wallet prefix on Enter and filters by status, keeping both in the URL', async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], {
      ...analyticsAnswers,
      contractFunctions: functions,
      transactionHistory: (variables) =>
        variables.search ? page([buildRow({ id: 'kept' })], null, 1) : page([buildRow()], 'more', 40),
    });
    const { user, location } = renderApp(`/console/${project.id}/analytics?tab=history`);
    await screen.findByText(/1 of 40 transactions loaded/);

    await user.type(screen.getByLabelText('Hash or wallet'), '0xAbCdEf{Enter}');
    await screen.findByText(/1 of 1 transaction matching loaded/);
    expect(lastHistoryCall(api)).toMatchObject({ search: '0xAbCdEf', first: 25, after: null });
    await user.selectOptions(screen.getByLabelText('Status'), 'Rejected in the wallet');
    await waitFor(() =>
      expect(lastHistoryCall(api)).toMatchObject({ search: '0xAbCdEf', status: 'rejected' }),
    );
    expect(location()).toContain('txSearch=0xAbCdEf');
    expect(location()).toContain('txStatus=rejected');

    await user.click(screen.getByRole('button', { name: /Clear search and filters/ }));
    await screen.findByText(/1 of 40 transactions loaded/);
    expect(location()).not.toContain('txSearch');
    expect((screen.getByLabelText('Hash or wallet') as HTMLInputElement).value).toBe('');
  });

  it('says inline what a search needs and asks nothing for fewer than 6 hex characters', async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], { ...analyticsAnswers, transactionHistory: page([buildRow()]) });
    const { user } = renderApp(`/console/${project.id}/analytics?tab=history`);
    await screen.findByText(/1 of 1 transaction loaded/);
    await user.type(screen.getByLabelText('Hash or wallet'), '0xabc');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByText(/its first 6 or more hex characters/)).toBeTruthy();
    expect(screen.getByLabelText('Hash or wallet').getAttribute('aria-invalid')).toBe('true');
    expect(api.callsOf('transactionHistory')).toHaveLength(1);
  });

  it('reads type, contract and function from the URL; the function list follows the contract', async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], {
      ...analyticsAnswers,
      contractFunctions: functions,
      transactionHistory: page([]),
    });
    const { user, location } = renderApp(
      `/console/${project.id}/analytics?tab=history&txType=Contract&txContract=${C1.toUpperCase().replace('0X', '0x')}&txFunction=0xa9059cbb`,
    );
    expect(await screen.findByText('No transactions match this search and these filters')).toBeTruthy();
    expect(api.callsOf('transactionHistory')[0]?.variables).toMatchObject({
      type: 'Contract',
      contract: C1,
      selector: '0xa9059cbb',
    });
    const functionSelect = screen.getByLabelText('Function') as HTMLSelectElement;
    await waitFor(() =>
      expect([...functionSelect.options].map((option) => option.text)).toEqual([
        'Any function',
        'transfer(address,uint256)',
      ]),
    );
    // Another contract drops the function chosen for the first.
    await user.selectOptions(screen.getByLabelText('Contract'), '0xc2c2…c2c2');
    await waitFor(() => expect(location()).toContain(`txContract=${C2}`));
    expect(location()).not.toContain('txFunction');
  });

  it('Download CSV saves the server’s file of every transaction the filters keep', async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], {
      ...analyticsAnswers,
      transactionHistory: page([buildRow()], 'more', 3),
    });
    const downloads = catchCsvDownloads();
    const asked: string[] = [];
    const serveApi = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (!url.includes('/transactions.csv')) return serveApi(input, init);
      asked.push(url);
      const csv =
        'id,hash,time,wallet,type,status,chain_id,country,browser\r\na,,t,w,Coin,failed,1,DE,Chrome\r\n';
      return new Response(csv, { status: 200, headers: { 'Content-Type': 'text/csv' } });
    });
    const { user } = renderApp(
      `/console/${project.id}/analytics?tab=history&period=7d&txStatus=failed&countries=DE&chains=137&chains=10`,
    );
    await screen.findByText(/1 of 3 transactions matching loaded/);
    await user.click(screen.getByRole('button', { name: /Download CSV: Transaction History/ }));
    const files: Awaited<ReturnType<typeof downloads.take>> = [];
    await waitFor(async () => {
      files.push(...(await downloads.take()));
      expect(files).toHaveLength(1);
    });
    const [file] = files;
    expect(file?.fileName).toMatch(
      /_analytics_transaction-history_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/,
    );
    expect(file?.records[1]).toEqual(['a', '', 't', 'w', 'Coin', 'failed', '1', 'DE', 'Chrome']);
    const query = new URL(asked[0] ?? '', 'http://console.test');
    expect(query.pathname).toBe(`/api/v1/projects/${project.id}/transactions.csv`);
    expect(query.searchParams.get('status')).toBe('failed');
    expect(query.searchParams.get('from')).toMatch(/^\d{4}-/);
    expect(query.searchParams.get('to')).toMatch(/^\d{4}-/);
    // The screen's filters, on the history's question and in the CSV's link (one parameter per value).
    expect(api.lastCurrentCallOf('transactionHistory')?.variables.filters).toEqual({
      countries: ['DE'],
      chains: [137, 10],
    });
    expect(query.searchParams.getAll('countries')).toEqual(['DE']);
    expect(query.searchParams.getAll('chains')).toEqual(['137', '10']);
  });
});
