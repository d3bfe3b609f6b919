import { expect, type Locator, type Page, test } from '@playwright/test';
import { type DemoInstance, signInAsDemo, startSeededDemo } from '../../support/demo-instance.ts';
import { snap } from '../../support/screenshots.ts';

let demo: DemoInstance;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  demo = await startSeededDemo();
});
test.afterAll(async () => demo?.dispose());

const incidentRows = (page: Page) =>
  page
    .getByRole('table')
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
const numberIn = (text: string | null) => Number((text ?? '').replace(/[^\d]/g, ''));
const summaryValue = async (page: Page, label: string) =>
  numberIn(await page.getByText(label, { exact: true }).locator('xpath=..').textContent());

const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search incidents' });
/** A box's hint width as drawn in its placeholder's font, and the room the box leaves for it. */
const hintFit = (box: Locator) =>
  box.evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const hint = getComputedStyle(input, '::placeholder');
    const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    context.font = `${hint.fontWeight} ${hint.fontSize} ${hint.fontFamily}`;
    const room =
      input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    return { hint: Math.ceil(context.measureText(input.placeholder).width), room };
  });

async function openList(page: Page, query = ''): Promise<void> {
  await signInAsDemo(page, demo);
  await page.goto(`${demo.url}/console/${demo.projectId}/errorlogs${query}`);
  await expect(page.getByRole('table')).toBeVisible();
  await expect(page.getByRole('table')).not.toHaveAttribute('aria-busy', 'true');
}

test('the incident list shows the last 7 days of the demo project, by severity', async ({ page }) => {
  await openList(page);
  await expect(page.getByText('Last 7 days')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Week', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const total = await summaryValue(page, 'Total incidents');
  expect(total).toBeGreaterThan(0);
  await expect(page.getByText('Transaction fail rate', { exact: true }).locator('xpath=..')).toContainText(
    '%',
  );

  let bySeverity = 0;
  for (const severity of ['Low', 'Mid', 'High', 'Severe']) {
    const label = await page
      .getByRole('button', { name: new RegExp(`^${severity}: \\d+$`) })
      .getAttribute('aria-label');
    bySeverity += numberIn(label);
  }
  expect(bySeverity).toBe(total);
  expect(await incidentRows(page).count()).toBe(Math.min(total, 25));
  await expect(
    incidentRows(page)
      .first()
      .getByRole('link', { name: /Inspect/ }),
  ).toBeVisible();
  await snap(page, 'incidents-demo-1280');

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, 'incidents-demo-390');
});

test('the search and release boxes show their whole hints on a desktop and a phone', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openList(page);
  // Opened wide: on a phone the list is not a table for openList to wait for.
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    for (const box of [searchBox(page), page.getByRole('textbox', { name: 'Release' })]) {
      const { hint, room } = await hintFit(box);
      const what = `${await box.getAttribute('placeholder')} at ${viewport.width} px`;
      expect(hint, what).toBeGreaterThan(0);
      expect(hint, what).toBeLessThanOrEqual(room);
    }
    await snap(page, `incidents-search-${viewport.width}`);
  }
});

test('a search narrows the list on the server and stays in the URL', async ({ page }) => {
  await openList(page, '?period=90d');
  const before = await incidentRows(page).count();
  expect(before).toBeGreaterThan(1);
  // Search for the longest word found in exactly one incident's message.
  const titles = (await incidentRows(page).locator('td:nth-child(2) p:nth-child(2)').allTextContents()).map(
    (title) => title.toLowerCase(),
  );
  const word = titles
    .flatMap((title) => title.split(/[^a-z]+/))
    .filter((candidate) => titles.filter((title) => title.includes(candidate)).length === 1)
    .sort((a, b) => b.length - a.length)[0];
  expect(word, `a distinguishing word in ${titles.join(' | ')}`).toBeTruthy();

  await searchBox(page).fill(word as string);
  await expect(page).toHaveURL(new RegExp(`q=${word}`));
  await expect.poll(() => incidentRows(page).count()).toBeLessThan(before);
  await expect(page.getByText(/of \d+ incidents match/)).toBeVisible();
  const after = await incidentRows(page).count();
  expect(after).toBeGreaterThan(0);
  await snap(page, 'incidents-demo-search');

  await searchBox(page).fill('');
  await expect.poll(() => incidentRows(page).count()).toBe(before);
});

test('Inspect opens the detail, whose wallet state is the stored event', async ({ page }) => {
  await openList(page, '?period=90d');
  const count = await incidentRows(page).count();
  let shown: Record<string, string> | undefined;
  // The latest occurrence of some incidents came before any wallet connected: take the first with a balance.
  for (let index = 0; index < count && !shown; index += 1) {
    await incidentRows(page)
      .nth(index)
      .getByRole('link', { name: /Inspect/ })
      .click();
    const walletState = page.getByRole('region', { name: 'Wallet state' });
    await expect(walletState).toBeVisible();
    const fact = (label: string) => walletState.getByText(label, { exact: true }).locator('xpath=..');
    const balance = (await fact('Gas balance').textContent()) ?? '';
    if (balance.includes('wei')) {
      shown = {
        balance,
        nonce: (await fact('Nonce').textContent()) ?? '',
        network: (await fact('Network').textContent()) ?? '',
        provider: (await fact('Wallet provider').textContent()) ?? '',
        eventId:
          (
            await page
              .getByRole('region', { name: 'Error log' })
              .getByText('Event', { exact: true })
              .locator('xpath=..')
              .textContent()
          )?.replace(/^Event/, '') ?? '',
      };
      await expect(
        page.getByTestId('stack-trace').or(page.getByText('No stack was recorded for this error.')),
      ).toBeVisible();
      await expect(
        page.getByRole('list', { name: 'Events leading up to the error' }).getByRole('listitem').last(),
      ).toContainText('This error');
      await expect(page.getByText('Incident ID')).toBeVisible();
      await snap(page, 'incident-detail-demo-1280');
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await snap(page, 'incident-detail-demo-390');
    } else {
      await page.getByRole('link', { name: 'All incidents' }).click();
      await expect(page.getByRole('table')).toBeVisible();
    }
  }
  expect(shown, 'an incident whose latest occurrence carries a wallet state').toBeTruthy();
  const state = shown as Record<string, string>;

  const stored = await demo.readStoredEvent(state.eventId as string);
  expect(stored, `stored event ${state.eventId}`).toBeTruthy();
  expect(stored?.type).toBe('error');
  expect(state.balance).toContain(`${stored?.gas_balance} wei`);
  expect(state.nonce).toContain(String(stored?.wallet_nonce ?? '—'));
  expect(state.network).toContain(`Chain ID ${stored?.chain_id}`);
  expect(state.provider).toContain(String(stored?.wallet_provider));
});
