import { expect, type Locator, type Page, test } from '@playwright/test';
import { DEMO_LOGIN, type DemoInstance, signInAsDemo, startSeededDemo } from '../../support/demo-instance.ts';
import { snap } from '../../support/screenshots.ts';

const TILES = [
  'Total Transactions',
  'Unique Wallets',
  'New Wallets Connected',
  'Transaction Fail Rate',
  'Daily Active Wallets',
  'Average TX/User/Day',
  'Daily Active Wallets Trend',
];
const CHARTS = ['Average gas price paid', 'Wallet providers', 'Failed transactions', 'Countries', 'Browsers'];

let demo: DemoInstance;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  demo = await startSeededDemo({ users: 1500 });
});
test.afterAll(async () => {
  await demo?.dispose();
});

/** The figure of a tile (the dd next to its dt label). */
const tileValue = (page: Page, label: string): Locator =>
  page
    .locator('dt', { hasText: new RegExp(`^${label.replace(/[/]/g, '\\/')}$`) })
    .locator('xpath=following-sibling::dd[1]//p[1]');
const card = (page: Page, title: string): Locator =>
  page.locator('section').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

async function openDemoAnalytics(page: Page): Promise<void> {
  await page.goto(`${demo.url}/`);
  await page.getByLabel('Email').fill(DEMO_LOGIN.email);
  await page.getByLabel('Password').fill(DEMO_LOGIN.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  // The account's only project opens by itself after the login.
  await expect(page).toHaveURL(/\/analytics$/);
}

/**
 * The same screen for the journeys after the first, which asserts the landing: signed in without the form
 * (ADR 106, one API login per demo server), the demo project's Analytics opened directly.
 */
async function openDemoAnalyticsSignedIn(page: Page): Promise<void> {
  await signInAsDemo(page, demo);
  await page.goto(`${demo.url}/console/${demo.projectId}/analytics`);
  await expect(page).toHaveURL(/\/analytics$/);
}

const asNumber = (text: string) => Number(text.replace(/[^0-9.-]/g, ''));
const textOf = async (locator: Locator) => (await locator.textContent()) ?? '';

test('the demo project: every tile, chart and table from data; a period change alters the figures', async ({
  page,
}) => {
  // As the next journey: the first over the 1,500-user demo ran past 60 s on a loaded machine.
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openDemoAnalytics(page);

  for (const label of TILES) {
    await expect(tileValue(page, label)).toHaveText(/^[+-]?[\d,.]+%?$/);
  }
  expect(asNumber(await textOf(tileValue(page, 'Total Transactions')))).toBeGreaterThan(0);
  expect(asNumber(await textOf(tileValue(page, 'Unique Wallets')))).toBeGreaterThan(0);

  for (const title of CHARTS) {
    const chart = card(page, title);
    await expect(chart.locator('svg.recharts-surface').first()).toBeVisible();
    await expect(chart.getByText(/No (failed )?transactions in this period/)).toHaveCount(0);
    await expect(chart.getByRole('alert')).toHaveCount(0);
  }
  const functions = card(page, 'Most executed contract functions');
  await expect(functions.getByRole('row').nth(1)).toBeVisible();
  expect(await functions.getByRole('row').count()).toBeGreaterThan(3);
  await expect(functions.getByRole('cell').first()).toHaveText(/^0x[0-9a-f]{4}…[0-9a-f]{4}/);
  await expect(
    card(page, 'Wallet providers').getByRole('listitem').filter({ hasText: 'MetaMask' }),
  ).toBeVisible();
  await snap(page, 'analytics-01-metrics-30d');

  const thirtyDays = await textOf(tileValue(page, 'Total Transactions'));
  const thirtyDayWallets = await textOf(tileValue(page, 'Unique Wallets'));
  await page.getByRole('button', { name: 'Week', exact: true }).click();
  await expect(page).toHaveURL(/period=7d/);
  await expect(tileValue(page, 'Total Transactions')).not.toHaveText(thirtyDays);
  const sevenDays = await textOf(tileValue(page, 'Total Transactions'));
  expect(asNumber(sevenDays)).toBeGreaterThan(0);
  expect(asNumber(sevenDays)).toBeLessThan(asNumber(thirtyDays));
  expect(asNumber(await textOf(tileValue(page, 'Unique Wallets')))).toBeLessThan(asNumber(thirtyDayWallets));
  await expect(card(page, 'Failed transactions').locator('svg.recharts-surface')).toBeVisible();
  await snap(page, 'analytics-02-metrics-7d');

  // A reload keeps the period (it lives in the URL).
  await page.reload();
  await expect(tileValue(page, 'Total Transactions')).toHaveText(sevenDays);
});

/** The rows of a CSV file as RFC 4180 writes them (quoted fields may hold commas, quotes, line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  return rows;
}

test("a tile's change against the previous period; a chart's overlay; a table's CSV equals the table", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openDemoAnalyticsSignedIn(page);

  // Every tile but the trend (a change itself) shows its change: an arrow and a percentage, or a neutral mark.
  const totalTile = page.locator('dt', { hasText: /^Total Transactions$/ }).locator('xpath=..');
  const change = totalTile.getByTestId('change');
  // The screen's chunk and two overview requests: slow on a loaded machine, so a longer first wait.
  await expect(change).toBeVisible({ timeout: 30_000 });
  await expect(change).toHaveAttribute('data-direction', /^(up|down|flat)$/);
  await expect(change).toHaveText(/^\d+(\.\d)?%(up|down|no change).*vs previous period$/);
  await expect(totalTile).toContainText(/Previous: [\d,]+/);
  // The last 30 days include today, which runs: the previous 30 days are cut at the same time of day.
  await expect(page.getByTestId('comparison-period')).toHaveText(
    /^Changes compare with the 30 days before, until \d{2}:\d{2} UTC\.$/,
  );
  // The figures shown agree with the arrow: current against the "Previous:" figure.
  const current = asNumber(await textOf(tileValue(page, 'Total Transactions')));
  const previous = asNumber(
    ((await textOf(totalTile)).match(/Previous: ([\d,]+)/)?.[1] ?? '').replace(/,/g, ''),
  );
  const direction = await change.getAttribute('data-direction');
  // A change that rounds to 0 as shown (under 0.05 %) is flat: no arrow points at a "0%".
  const roundsToNothing = previous > 0 && Math.round((Math.abs(current - previous) / previous) * 1000) === 0;
  expect(direction).toBe(
    roundsToNothing ? 'flat' : current > previous ? 'up' : current < previous ? 'down' : 'flat',
  );
  if (previous > 0) {
    const shown = Number((await textOf(change)).match(/^([\d.]+)%/)?.[1]);
    const exact = (Math.abs(current - previous) / previous) * 100;
    expect(Math.abs(shown - exact)).toBeLessThanOrEqual(exact >= 10 ? 0.5 : 0.05);
  }
  await expect(card(page, 'Overview').getByTestId('change')).toHaveCount(6);

  // The overlay: a toggle button, a dashed previous line and its legend.
  const failed = card(page, 'Failed transactions');
  const toggle = failed.getByRole('button', { name: 'Compare Failed transactions with the previous period' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(failed.getByRole('list', { name: 'Legend' })).toContainText('Previous period');
  await expect(failed.locator('path.recharts-line-curve[stroke-dasharray="5 4"]')).toBeVisible();
  await snap(page, 'analytics-06-previous-period');

  // Download CSV of the contract functions: every function the server listed (Show all's rows), the first
  // ones as on screen, the rest adding up to the table's "Other" row, each with its share of all calls.
  const functions = card(page, 'Most executed contract functions');
  const button = functions.getByRole('button', { name: 'Download CSV: Most executed contract functions' });
  await button.focus();
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toMatch(
    /^demo-dex_analytics_most-executed-contract-functions_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/,
  );
  const file = await download.path();
  const { readFileSync } = await import('node:fs');
  const [header, ...rows] = parseCsv(readFileSync(file, 'utf8'));
  expect(header).toEqual(['chain_id', 'contract', 'selector', 'function', 'calls', 'share']);
  const screenRows = await functions
    .getByRole('row')
    .evaluateAll((trs) =>
      trs.slice(1).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
  const otherRow = screenRows.at(-1)?.[0]?.startsWith('Other (') ? screenRows.pop() : undefined;
  expect(rows.length).toBeGreaterThanOrEqual(screenRows.length);
  expect(screenRows.length).toBeGreaterThan(3);
  screenRows.forEach(([contractCell = '', functionCell = '', callsCell = ''], index) => {
    const [, contract = '', selector = '', fn = '', calls = ''] = rows[index] ?? [];
    expect(contractCell.startsWith(`${contract.slice(0, 6)}…${contract.slice(-4)}`)).toBe(true);
    expect(functionCell).toBe(fn ? fn.replace(/\(.*$/, '') : selector);
    // Numbers unformatted in the file, grouped on screen.
    expect(calls).toMatch(/^\d+$/);
    expect(callsCell).toBe(Number(calls).toLocaleString('en-US'));
  });
  const restCalls = rows.slice(screenRows.length).reduce((sum, row) => sum + Number(row[4]), 0);
  if (otherRow) expect(otherRow[1]).toBe(restCalls.toLocaleString('en-US'));
  else expect(rows.length).toBe(screenRows.length);
  const shares = rows.reduce((sum, row) => sum + Number(row[5]), 0);
  expect(shares).toBeCloseTo(1, 6);
});

test('transaction history by UTC day, Load more, and Inspect with the block explorer link', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openDemoAnalyticsSignedIn(page);
  await page.getByRole('tab', { name: 'Transaction History' }).click();
  await expect(page).toHaveURL(/tab=history/);

  const table = page.getByRole('table');
  await expect(table.getByRole('rowheader').first()).toHaveText(/^\w+day, \d{1,2} \w+ \d{4}$/);
  await expect(page.getByText('Dates and times are in UTC.', { exact: false })).toBeVisible();
  const inspect = page.getByRole('button', { name: /^Inspect transaction/ });
  await expect(inspect.first()).toBeVisible();
  expect(await inspect.count()).toBe(25);
  const firstRow = table
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: /^Inspect transaction 0x/ }) })
    .first();
  await expect(firstRow.getByRole('cell').nth(0)).toHaveText(/^0x[0-9a-f]{4}…[0-9a-f]{4}$/);
  await expect(firstRow.getByRole('cell').nth(1)).toHaveText(/^\d{2}:\d{2}:\d{2}$/);
  await expect(firstRow.getByRole('cell').nth(2)).toHaveText(/^0x[0-9a-f]{4}…[0-9a-f]{4}$/);
  await expect(firstRow.getByRole('cell').nth(3)).toHaveText(/^(Coin|Contract)$/);
  await snap(page, 'analytics-03-history');

  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(inspect).toHaveCount(50);

  const hash = ((await firstRow.getByRole('button').getAttribute('aria-label')) ?? '').replace(
    'Inspect transaction ',
    '',
  );
  await firstRow.getByRole('button', { name: /^Inspect transaction/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Transaction' });
  await expect(dialog.getByText(hash, { exact: true })).toBeVisible();
  await expect(dialog.getByText('Stages (UTC)')).toBeVisible();
  await expect(dialog.getByRole('region', { name: 'Stages' }).getByRole('listitem').first()).toContainText(
    'Requested',
  );
  await expect(dialog.getByText(/ ETH$/).first()).toBeVisible();
  await expect(dialog.getByText(/ gwei$/).first()).toBeVisible();
  // The demo's chains are all well known, so every submitted transaction links to its explorer.
  const explorer = dialog.getByRole('link', { name: /View on block explorer/ });
  await expect(explorer).toHaveAttribute('href', new RegExp(`^https://[a-z.-]+/tx/${hash}$`));
  await snap(page, 'analytics-04-inspect');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('transaction history: search a wallet prefix, filter by status, and the CSV of every match', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openDemoAnalyticsSignedIn(page);
  await page.getByRole('tab', { name: 'Transaction History' }).click();
  const count = page.getByTestId('history-count');
  await expect(count).toContainText(/of [\d,]+ transactions loaded/);
  // The default period's count is on screen; the 90 days' is the one to read. The URL changes before the screen
  // renders the new period, so the old count could still be read after it: wait for the 90 days' answer.
  const ninetyDays = page.waitForResponse(
    (response) =>
      response.url().endsWith('/graphql') &&
      (response.request().postData() ?? '').includes('TransactionHistory'),
  );
  await page.getByRole('button', { name: '90D' }).click();
  await ninetyDays;
  await expect(page).toHaveURL(/tab=history/);
  await expect(page).toHaveURL(/period=90d/);
  await expect(count).toContainText(/of [\d,]+ transactions loaded/);
  // The count reads "Searching…" while a newer answer is asked: wait until it names a total again rather than
  // reading that placeholder as 0.
  const totalOf = async () => {
    let total = Number.NaN;
    await expect
      .poll(async () => {
        const found = /of ([\d,]+) transactions?/.exec(await textOf(count))?.[1];
        total = found === undefined ? Number.NaN : asNumber(found);
        return Number.isNaN(total);
      })
      .toBe(false);
    return total;
  };
  const everything = await totalOf();

  // A wallet of the list, by the first 8 hex digits of its address, typed in capitals.
  const wallet = page.getByRole('table').getByRole('link', { name: /^0x/ }).first();
  const address = ((await wallet.getAttribute('href')) ?? '').replace(/^.*\/wallets\//, '').toLowerCase();
  expect(address).toMatch(/^0x[0-9a-f]{40}$/);
  const prefix = address.slice(0, 10);
  const search = page.getByLabel('Hash or wallet');
  await search.fill(prefix.toUpperCase().replace('0X', '0x'));
  await search.press('Enter');
  await expect(page).toHaveURL(/txSearch=0x/i);
  await expect(count).toContainText(/transactions? matching loaded/);
  const ofWallet = await totalOf();
  expect(ofWallet).toBeGreaterThan(0);
  expect(ofWallet).toBeLessThan(everything);

  // Status by keyboard: the select is labelled and reachable.
  await page.getByLabel('Status').focus();
  await page.getByLabel('Status').selectOption('confirmed');
  await expect(page).toHaveURL(/txStatus=confirmed/);
  await expect(count).toContainText(/transactions? matching loaded/);
  await expect(page.getByRole('table').getByText(/^(rejected|failed|reverted|submitted)$/)).toHaveCount(0);
  await snap(page, 'analytics-07-history-search');

  const csvOf = async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /^Download CSV: Transaction History/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^demo-dex_analytics_transaction-history_.*\.csv$/);
    const { readFileSync } = await import('node:fs');
    return parseCsv(readFileSync(await download.path(), 'utf8'));
  };
  const walletTotal = await totalOf();
  const [header, ...rows] = await csvOf();
  expect(header).toEqual([
    'id',
    'hash',
    'time',
    'wallet',
    'type',
    'status',
    'chain_id',
    'country',
    'browser',
  ]);
  expect(rows).toHaveLength(walletTotal);
  for (const row of rows) {
    expect(row[5]).toBe('confirmed');
    expect(row[3]?.startsWith(prefix) || row[1]?.startsWith(prefix)).toBe(true);
  }

  // Without the search: every confirmed transaction of the period, far more than the 25 loaded.
  await page.getByRole('button', { name: /Clear search and filters/ }).click();
  // The next choice is made on the cleared screen, as a person would: a change asked before the screen
  // re-renders starts from the URL of its last render (react-router's setSearchParams).
  await expect(page).not.toHaveURL(/txSearch/);
  await expect(page.getByLabel('Status')).toHaveValue('');
  await page.getByLabel('Status').selectOption('confirmed');
  await expect(page).toHaveURL(/txStatus=confirmed/);
  await expect(page).not.toHaveURL(/txSearch/);
  await expect(count).toContainText(/^Newest first.*25 of [\d,]+ transactions matching loaded/);
  const confirmed = await totalOf();
  expect(confirmed).toBeGreaterThan(25);
  const [, ...all] = await csvOf();
  expect(all).toHaveLength(confirmed);
  expect(new Set(all.map((row) => row[5]))).toEqual(new Set(['confirmed']));
  expect(new Set(all.map((row) => row[0])).size).toBe(confirmed);
});

test('the Analytics screen on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openDemoAnalyticsSignedIn(page);
  // Two overview requests now (the period and the previous one): a longer first wait on a loaded machine.
  await expect(tileValue(page, 'Total Transactions')).toHaveText(/^[\d,]+$/, { timeout: 30_000 });
  await expect(card(page, 'Browsers').locator('svg.recharts-surface').first()).toBeVisible();
  // Nothing wider than the screen outside the scrollable tables.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // No tile's figure and change spill out of the tile (they wrap within it).
  const spills = await page
    .locator('dl > div')
    .evaluateAll((tiles) =>
      tiles.filter((tile) => tile.scrollWidth > tile.clientWidth + 1).map((tile) => tile.textContent),
    );
  expect(spills).toEqual([]);
  await snap(page, 'analytics-05-phone');
  await card(page, 'Failed transactions')
    .getByRole('button', { name: 'Compare Failed transactions with the previous period' })
    .click();
  await expect(card(page, 'Failed transactions').getByRole('list', { name: 'Legend' })).toBeVisible();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await snap(page, 'analytics-07-phone-previous-period');
});
