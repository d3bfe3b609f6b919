import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import type { DemoDapp } from '../../../examples/demo-dapp/src/demo-server.mjs';
import { signInAs } from '../../support/api.ts';
import { snap } from '../../support/screenshots.ts';
import { approveNext, clickAndWaitForLog } from '../sdk/demo-page.ts';
import { type DappStack, startDappStack, stopDappStack } from '../sdk/sdk-stack.ts';

/**
 * A custom funnel end to end (docs/funnels.md): the demo dapp is visited, its wallet connected and
 * `track('swap_quote_shown')` called; the owner builds a funnel "any page → wallet connection →
 * swap_quote_shown" with the console's builder, from the keyboard; the saved funnel shows one user at
 * every step, and a second funnel whose last step nobody did shows the drop-off.
 */
let stack: DappStack | undefined;
let polyflowUrl: string;
let owner: DappStack['owner'];
let project: DappStack['project'];
let demo: DemoDapp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  stack = await startDappStack();
  ({ polyflowUrl, owner, project, demo } = stack);
});
test.afterAll(async () => {
  await stopDappStack(stack ?? {});
});

/** A screenshot in e2e/screenshots (with the contrast check) and a copy for the session's reviewers. */
async function shot(page: Page, name: string) {
  await snap(page, name);
  const out = process.env.FUNNEL_SCREENS_DIR;
  if (out) {
    mkdirSync(out, { recursive: true });
    await page.screenshot({ path: join(out, `${name}.png`), fullPage: true });
  }
}

test('a funnel saved in the console counts the demo dapp visit, connection and track', async ({ page }) => {
  test.setTimeout(150_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${demo.url}/`);
  await expect(page.locator('#status-sdk')).toHaveText(/^loaded from/);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await approveNext(page);
  await expect(page.locator('#status-account')).toHaveText(demo.accounts[0] as string);
  expect((await clickAndWaitForLog(page, 'Get a swap quote', 'swap-quote')).outcome).toBe('ok');
  // Leaving the page flushes the SDK's queue.
  await page.goto('about:blank');

  // Signed in without the form (logging in has journeys of its own), straight to the Funnels screen.
  await signInAs(page, owner);
  await page.goto(`${polyflowUrl}/console/${project.id}/funnels`);
  await expect(page.getByText('No funnel yet')).toBeVisible();

  // The builder from the keyboard: fields in order, the kind chosen with the arrow keys.
  await page.getByRole('button', { name: 'New funnel' }).click();
  await page.getByLabel('Name').fill('Visit, connect, quote');
  await page.getByLabel('Step 1 path pattern').fill('/**');
  await page.getByRole('button', { name: 'Add step' }).press('Enter');
  await page.getByLabel('Step 3 event name').fill('swap_quote_shown');
  await page.getByLabel('Window').fill('1');
  await page.getByLabel('Unit').selectOption('hours');
  await shot(page, 'funnels-builder-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'funnels-builder-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByLabel('Step 3 event name').press('Enter');

  const chart = page.getByTestId('funnel-chart');
  // Accepted events reach the store within the loader's few seconds: reload until they are there.
  await expect(async () => {
    await page.reload();
    await expect(chart.getByTestId('funnel-step-3')).toHaveText('1 user · 100%', { timeout: 3_000 });
  }).toPass({ timeout: 40_000 });
  await expect(chart.getByTestId('funnel-step-1')).toHaveText('1 user · 100%');
  await expect(chart.getByTestId('funnel-step-2')).toHaveText('1 user · 100%');

  // A second funnel whose last step nobody did: the drop-off shows; split by source (none: unattributed).
  await page.getByRole('button', { name: 'New funnel' }).click();
  await page.getByLabel('Name').fill('Connect then confirm');
  await page.getByLabel('Kind').first().selectOption('wallet_connected');
  await page.getByLabel('Kind').nth(1).selectOption('transaction');
  await page.getByRole('button', { name: 'Save funnel' }).click();
  await expect(chart.getByTestId('funnel-step-1')).toHaveText('1 user · 100%');
  await expect(chart.getByTestId('funnel-step-2')).toHaveText('0 users · 0%');
  await expect(chart.getByText('1 dropped off')).toBeVisible();
  await page.getByLabel('Split by').selectOption('source');
  await expect(page.getByTestId('funnel-split').getByRole('row', { name: /Unattributed/ })).toContainText(
    'Unattributed10',
  );
  await shot(page, 'funnels-result-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'funnels-result-390');
  expect(pageErrors).toEqual([]);
});
