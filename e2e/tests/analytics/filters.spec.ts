import { expect, type Locator, type Page, test } from '@playwright/test';
import { DEMO_LOGIN, type DemoInstance, startSeededDemo } from '../../support/demo-instance.ts';
import { snap } from '../../support/screenshots.ts';

/**
 * The Analytics filters (docs/analytics.md, "Filters"): click a country, then a wallet provider; every
 * tile and card answers for the sessions they keep, the history's total and its CSV too, the chips say
 * which, the URL keeps them, and removing a chip gives the other filter's view back.
 */
let demo: DemoInstance;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  demo = await startSeededDemo({ users: 1500 });
});
test.afterAll(async () => demo?.dispose());

const TILES = ['Total Transactions', 'Unique Wallets', 'Daily Active Wallets'];
const CARDS = ['Wallet providers', 'Countries', 'Browsers', 'Top pages', 'Top referrers'];

const tileValue = (page: Page, label: string): Locator =>
  page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]//p[1]');
const card = (page: Page, title: string): Locator =>
  page.locator('section').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const chips = (page: Page) => page.getByTestId('filter-chip');
const asNumber = (text: string | null | undefined) => Number((text ?? '').replace(/[^0-9.-]/g, ''));

/** Every tile's figure and every card's text, once no request is running. */
async function view(page: Page): Promise<Record<string, string>> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 45_000 });
  const figures: Record<string, string> = {};
  for (const label of TILES) figures[label] = (await tileValue(page, label).textContent()) ?? '';
  for (const title of CARDS) figures[title] = (await card(page, title).textContent()) ?? '';
  return figures;
}

test('click a country, then a wallet provider: every card changes, chips show them, one is removed', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${demo.url}/`);
  await page.getByLabel('Email').fill(DEMO_LOGIN.email);
  await page.getByLabel('Password').fill(DEMO_LOGIN.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/analytics$/);
  // The card's answer over 1,500 users, as long as `view` gives the others (its bars were still loading after
  // the default 10 s on a loaded machine).
  await expect(
    card(page, 'Countries')
      .getByRole('button', { name: /^Filter by / })
      .first(),
  ).toBeVisible({ timeout: 45_000 });
  const before = await view(page);
  await expect(chips(page)).toHaveCount(0);

  // A country's bar label is a button: the first (most users) one, from the keyboard.
  const country = card(page, 'Countries')
    .getByRole('button', { name: /^Filter by / })
    .first();
  const countryName = ((await country.getAttribute('aria-label')) ?? '').replace(/^Filter by Country: /, '');
  await country.focus();
  await page.keyboard.press('Enter');
  await expect(chips(page)).toHaveText([`Country: ${countryName}`]);
  await expect(page).toHaveURL(/[?&]countries=[A-Z]{2}/);
  const byCountry = await view(page);
  expect(asNumber(byCountry['Total Transactions'])).toBeLessThan(asNumber(before['Total Transactions']));
  expect(asNumber(byCountry['Unique Wallets'])).toBeLessThan(asNumber(before['Unique Wallets']));
  for (const title of CARDS) expect(byCountry[title], title).not.toBe(before[title]);
  // The countries card now holds that country alone.
  await expect(card(page, 'Countries').getByRole('button', { name: /^Filter by / })).toHaveCount(1);
  // The Wallets cards say what they count under the filters.
  await expect(page.getByTestId('filtered-note-lifecycle')).toBeVisible();

  // The Transaction History follows the chip: its total is the filtered tile's, and its CSV (the server's
  // file of every matching transaction) carries the filter and holds that many rows.
  await page.getByRole('tab', { name: 'Transaction History' }).click();
  const count = page.getByTestId('history-count');
  await expect(count).toContainText('matching loaded', { timeout: 45_000 });
  const historyTotal = asNumber(/ of ([\d,]+) /.exec((await count.textContent()) ?? '')?.[1]);
  expect(historyTotal).toBe(asNumber(byCountry['Total Transactions']));
  const [csv] = await Promise.all([
    page.waitForResponse((response) => response.url().includes('/transactions.csv')),
    page.getByRole('button', { name: /^Download CSV: Transaction History/ }).click(),
  ]);
  expect(csv.url()).toMatch(/[?&]countries=[A-Z]{2}(&|$)/);
  // The page consumes the streamed body; the same request again, with its credentials, reads it.
  const again = await page.request.get(csv.url(), { headers: await csv.request().allHeaders() });
  expect((await again.text()).trim().split('\r\n')).toHaveLength(historyTotal + 1);
  await page.getByRole('tab', { name: 'Metrics' }).click();

  // Then a wallet provider, by a click on its legend entry.
  const provider = card(page, 'Wallet providers')
    .getByRole('button', { name: /^Filter by Wallet provider: / })
    .first();
  const providerName = ((await provider.getAttribute('aria-label')) ?? '').replace(
    /^Filter by Wallet provider: /,
    '',
  );
  await provider.click();
  await expect(chips(page)).toHaveText([`Country: ${countryName}`, `Wallet provider: ${providerName}`]);
  await expect(page).toHaveURL(/walletProviders=/);
  const both = await view(page);
  expect(asNumber(both['Unique Wallets'])).toBeLessThanOrEqual(asNumber(byCountry['Unique Wallets']));
  expect(both['Wallet providers']).not.toBe(byCountry['Wallet providers']);
  await snap(page, 'analytics-filters-1440');

  // A reload keeps them (the URL).
  await page.reload();
  await expect(chips(page)).toHaveCount(2);
  expect(await view(page)).toEqual(both);

  // Removing the country leaves the provider's view.
  await page.getByRole('button', { name: `Remove filter Country: ${countryName}` }).click();
  await expect(chips(page)).toHaveText([`Wallet provider: ${providerName}`]);
  await expect(page).not.toHaveURL(/countries=/);
  const byProvider = await view(page);
  expect(asNumber(byProvider['Unique Wallets'])).toBeGreaterThanOrEqual(asNumber(both['Unique Wallets']));
  expect(byProvider.Countries).not.toBe(both.Countries);

  // On a phone: the chips wrap, the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(chips(page)).toHaveCount(1);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await snap(page, 'analytics-filters-390');

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(chips(page)).toHaveCount(0);
  expect(await view(page)).toEqual(before);
});
