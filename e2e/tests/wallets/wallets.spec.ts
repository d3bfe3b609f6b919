import { expect, type Page, test } from '@playwright/test';
import { type DemoInstance, signInAsDemo, startSeededDemo } from '../../support/demo-instance.ts';
import { snap } from '../../support/screenshots.ts';

/**
 * Wallets as first-class (docs/wallets.md) on the seeded demo project: from a failed transaction in the
 * history to its wallet's page, to the incident that failed it and back; the Wallets list; the lifecycle
 * counts, the cohort heatmap and the failed-transaction cost on Analytics, at desktop and phone widths.
 */
let demo: DemoInstance;
// The three journeys only read: each worker that runs some of them has its own copy of the demo data.
test.describe.configure({ mode: 'parallel' });
test.beforeAll(async () => {
  test.setTimeout(180_000);
  demo = await startSeededDemo();
});
test.afterAll(async () => demo?.dispose());

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function fitsPhone(page: Page, name: string) {
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await snap(page, `${name}-390`);
  await page.setViewportSize(DESKTOP);
}

test('a failed transaction in the history leads to its wallet, its incident and back', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await signInAsDemo(page, demo);
  await page.goto(`${demo.url}/console/${demo.projectId}/analytics?tab=history&period=90d`);
  const rows = page.getByRole('row').filter({ hasText: 'Not sent' });
  await expect(rows.first()).toBeVisible();

  // A transaction never sent is rejected or failed: inspect them until one failed.
  const dialog = page.getByRole('dialog');
  let found = false;
  for (let index = 0; index < 25 && !found; index++) {
    const row = rows.nth(index);
    if ((await row.count()) === 0) {
      await page.getByRole('button', { name: /Load more|Show more|Older/ }).click();
      continue;
    }
    await row.getByRole('button', { name: /Inspect/ }).click();
    await expect(dialog).toBeVisible();
    // The details load after the dialog opens: read them once shown (their stages last), not the spinner.
    await expect(dialog.getByRole('region', { name: 'Stages' })).toBeVisible();
    if ((await dialog.getByText('Why it failed').count()) > 0) {
      found = true;
      break;
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
  expect(found, 'a failed transaction among the latest unsent ones').toBe(true);
  const walletLink = dialog.getByRole('link', { name: /^0x[0-9a-f]{40}$/ });
  const address = (await walletLink.textContent()) ?? '';
  await walletLink.click();

  await expect(page).toHaveURL(new RegExp(`/wallets/${address}$`));
  // The slowest of the wallet queries (docs/decisions/050): on a loaded machine it may take seconds.
  await expect(page.getByRole('heading', { name: address })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Where it came from')).toBeVisible();
  const failedTile = page.getByText('Failed', { exact: true }).locator('xpath=..');
  expect(Number((await failedTile.textContent())?.replace(/\D.*$/s, '') || '0')).toBeGreaterThanOrEqual(0);
  await expect(page.getByText('Transaction failed').first()).toBeVisible();
  await snap(page, 'wallet-page-1440');
  await fitsPhone(page, 'wallet-page');

  // This wallet's sessions fit the first page: no older ones to ask for.
  await expect(page.getByText(/^The latest (\d+) of \1 sessions/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Older sessions' })).toHaveCount(0);

  // The wallet error that came with the failure belongs to an incident.
  await page.getByRole('link', { name: 'Open its incident' }).first().click();
  await expect(page).toHaveURL(/\/errorlogs\//);
  await expect(page.getByRole('heading', { name: 'Incident', exact: true })).toBeVisible();
  // The incident shows its latest occurrence, which may be another wallet's in the demo data: it links to
  // that wallet's page as every address does.
  await expect(page.getByRole('link', { name: /^0x[0-9a-f]{40}$/ }).first()).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { name: address })).toBeVisible({ timeout: 30_000 });

  // An address the project never saw.
  await page.goto(`${demo.url}/console/${demo.projectId}/wallets/0x${'0'.repeat(39)}1`);
  await expect(page.getByText('Wallet not seen')).toBeVisible();
});

/** Sends events as a dapp does (POST /api/v1/events from a whitelisted origin, a browser's User-Agent). */
async function send(events: object[]) {
  const response = await fetch(`${demo.url}/api/v1/events`, {
    method: 'POST',
    headers: {
      'content-type': 'text/plain',
      origin: 'http://localhost',
      'user-agent':
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
    },
    body: JSON.stringify({ apiKey: demo.apiKey, sdkVersion: '2.0.0', release: 'v1.4.0', events }),
  });
  expect(response.status).toBe(200);
  expect((await response.json()).accepted).toBe(events.length);
}

test('a wallet with 12 sessions shows the newest 10, then the older ones on demand', async ({ page }) => {
  test.setTimeout(120_000);
  // A returning wallet: one session a day for 12 days, each a page view and a connection.
  const address = `0x${'e2'.repeat(20)}`;
  const wallet = { provider: 'MetaMask', rdns: 'io.metamask', chainId: 1, address };
  const events = Array.from({ length: 12 }, (_, day) => {
    const ts = Date.now() - (day + 1) * 86_400_000;
    const session = { userId: 'e2e-returning', sessionId: `e2e-returning-${day}`, path: '/swap' };
    return [
      { ...session, id: `e2e_ret_${day}_a`, ts, type: 'page_view' },
      { ...session, id: `e2e_ret_${day}_b`, ts: ts + 30_000, type: 'wallet_connected', wallet },
    ];
  }).flat();
  await send(events);

  await page.setViewportSize(DESKTOP);
  await signInAsDemo(page, demo);
  const summary = page.getByText(/^The latest \d+ of 12 sessions/);
  // Acknowledged events reach the store within the loader's few seconds: reload until they are there. The
  // page has answered once it shows a wallet's sessions (maybe fewer, loaded so far) or says it never saw it.
  const answered = page.getByText(/^The latest \d+ of \d+ sessions/).or(page.getByText('Wallet not seen'));
  await expect(async () => {
    await page.goto(`${demo.url}/console/${demo.projectId}/wallets/${address}`);
    await expect(answered).toBeVisible({ timeout: 15_000 });
    await expect(summary).toBeVisible({ timeout: 1 });
  }).toPass({ timeout: 60_000 });
  await expect(summary).toHaveText('The latest 10 of 12 sessions, newest first.');
  await snap(page, 'wallet-page-newest-sessions-1440');
  await page.getByRole('button', { name: 'Older sessions' }).click();
  await expect(summary).toHaveText('The latest 12 of 12 sessions, newest first.');
  await expect(page.getByRole('button', { name: 'Older sessions' })).toHaveCount(0);
  await snap(page, 'wallet-page-older-sessions-1440');
  await fitsPhone(page, 'wallet-page-older-sessions');
});

test('the Wallets list searches, filters by stage and links to each wallet', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signInAsDemo(page, demo);
  await page.goto(`${demo.url}/console/${demo.projectId}/wallets?period=90d`);
  const rows = page.getByRole('row').filter({ has: page.getByRole('cell') });
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBe(50);
  await snap(page, 'wallets-list-1440');
  await fitsPhone(page, 'wallets-list');

  await page.getByLabel('Stage', { exact: true }).selectOption('CHURNED');
  await expect(page).toHaveURL(/stage=CHURNED/);
  // The URL changes as the navigation starts; the rows of the stage before may still be on screen until the
  // new list renders: wait until every row shown is a Churned one.
  await expect
    .poll(async () => [...new Set(await rows.locator('td:nth-child(2)').allTextContents())])
    .toEqual(['Churned']);

  const first = rows.first().getByRole('link');
  const full = (await first.getAttribute('title')) ?? '';
  await page.getByLabel('Address').fill(full.slice(2, 10).toUpperCase());
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole('link').click();
  await expect(page.getByRole('heading', { name: full })).toBeVisible();
});

test('Analytics shows lifecycle counts, the cohort heatmap and the failed-transaction cost', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await signInAsDemo(page, demo);
  await page.goto(`${demo.url}/console/${demo.projectId}/analytics?period=90d`);
  const counts = page.getByTestId('lifecycle-counts');
  await expect(counts).toBeVisible();
  const figures = (await counts.locator('dd a').allTextContents()).map((text) =>
    Number(text.replace(/,/g, '')),
  );
  expect(figures).toHaveLength(6);
  expect(figures.reduce((sum, value) => sum + value, 0)).toBeGreaterThan(0);

  const heatmap = page.getByTestId('cohort-heatmap');
  await expect(heatmap).toBeVisible();
  expect(await heatmap.getByRole('row').count()).toBeGreaterThan(5);
  await expect(heatmap.getByText(/^\d+%$/).first()).toBeVisible();
  await page.getByRole('button', { name: 'Transacted' }).click();
  await expect(page.getByRole('button', { name: 'Transacted' })).toHaveAttribute('aria-pressed', 'true');
  await expect(heatmap.getByText(/^\d+%$/).first()).toBeVisible();

  const cost = page.getByTestId('failed-cost');
  await expect(cost).toBeVisible();
  await expect(cost.getByText(/of gas paid/).first()).toBeVisible();
  await snap(page, 'analytics-wallets-1440');
  await fitsPhone(page, 'analytics-wallets');
});

test('a lifecycle count on a filtered Analytics screen opens as many wallets, under the same chips', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await signInAsDemo(page, demo);
  await page.goto(`${demo.url}/console/${demo.projectId}/analytics?period=90d`);
  const countries = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Countries', exact: true }) });
  const country = countries.getByRole('button', { name: /^Filter by / }).first();
  const countryName = ((await country.getAttribute('aria-label')) ?? '').replace(/^Filter by Country: /, '');
  await country.click();
  await expect(page.getByTestId('filter-chip')).toHaveText([`Country: ${countryName}`]);
  await expect(page.getByTestId('filtered-note-lifecycle')).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 45_000 });

  // The stage with the most wallets under the filter: its count, then its link.
  const links = page.getByTestId('lifecycle-counts').locator('dd a');
  const figures = (await links.allTextContents()).map((text) => Number(text.replace(/,/g, '')));
  const most = figures.indexOf(Math.max(...figures));
  expect(figures[most]).toBeGreaterThan(0);
  await links.nth(most).click();

  await expect(page).toHaveURL(/\/wallets\?.*stage=/);
  await expect(page).toHaveURL(/[?&]countries=[A-Z]{2}/);
  await expect(page.getByTestId('filter-chip')).toHaveText([`Country: ${countryName}`]);
  await expect(page.getByTestId('filtered-note-list')).toBeVisible();
  const rows = page.getByRole('row').filter({ has: page.getByRole('cell') });
  await expect(rows.first()).toBeVisible();
  const more = page.getByRole('button', { name: 'Load more' });
  while (await more.isVisible()) {
    const loaded = await rows.count();
    await more.click();
    await expect.poll(() => rows.count()).toBeGreaterThan(loaded);
  }
  expect(await rows.count()).toBe(figures[most]);
  await snap(page, 'wallets-list-filtered-1440');
  await fitsPhone(page, 'wallets-list-filtered');

  // Removing the chip lists the stage's wallets of every country: at least as many.
  await page.getByRole('button', { name: `Remove filter Country: ${countryName}` }).click();
  await expect(page.getByTestId('filter-chip')).toHaveCount(0);
  await expect(page.getByTestId('filtered-note-list')).toHaveCount(0);
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThanOrEqual(Math.min(figures[most] ?? 0, 50));
});
