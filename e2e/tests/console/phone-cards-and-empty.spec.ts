import { expect, type Locator, test } from '@playwright/test';
import { createProject, createVerifiedAccount, signInAs } from '../../support/api.ts';
import { type DemoInstance, signInAsDemo, startSeededDemo } from '../../support/demo-instance.ts';
import { snap } from '../../support/screenshots.ts';

/**
 * What a 390 px phone showed cut or cramped, found by looking at every screen: the Wallets list's columns
 * past the screen's edge (its table scrolled sideways inside its card), and a chart card's empty message
 * running into its box's edges (Goals' long one on a new project).
 */
const PHONE = { width: 390, height: 844 };

/** The element's box lies between the screen's left and right edges. */
async function expectOnScreen(locator: Locator, what: string): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  expect(box, `${what} is shown`).not.toBeNull();
  expect(box?.x ?? -1, `${what} starts on screen`).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0), `${what} ends on screen`).toBeLessThanOrEqual(PHONE.width);
}

test.describe('the seeded demo', () => {
  let demo: DemoInstance;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    demo = await startSeededDemo();
  });
  test.afterAll(async () => demo?.dispose());

  test('390 px: every figure of a wallet in the Wallets list is on screen', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signInAsDemo(page, demo);
    await page.goto(`${demo.url}/console/${demo.projectId}/wallets?period=90d`);
    const wallet = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: /^0x/ }) })
      .first();
    await expect(wallet).toBeVisible();
    for (const figure of [
      'First seen',
      'Last seen',
      'Transactions',
      'Failed',
      'Gas paid',
      'Source / campaign',
    ]) {
      await expectOnScreen(
        wallet.getByText(figure, { exact: true }).locator('xpath=following-sibling::dd[1]'),
        figure,
      );
    }
    await snap(page, 'wallets-list-cards-390');
  });
});

test('390 px: a chart card’s empty message keeps clear of its box’s edges', async ({ page }) => {
  const account = await createVerifiedAccount('empty-cards');
  const project = await createProject(account, 'Quiet dapp', ['localhost']);
  await signInAs(page, account);
  await page.setViewportSize(PHONE);
  await page.goto(`/console/${project.id}/analytics`);
  const goals = page.locator('section', { has: page.getByRole('heading', { name: 'Goals' }) });
  const message = goals.getByText(/^No goals yet\./);
  await expect(message).toBeVisible();
  // The lines of text, measured on the text itself, against the box drawn around the message.
  const gaps = await message.evaluate((paragraph) => {
    const box = (paragraph.parentElement as HTMLElement).getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(paragraph);
    const lines = [...range.getClientRects()];
    return {
      left: Math.min(...lines.map((line) => line.left - box.left)),
      right: Math.min(...lines.map((line) => box.right - line.right)),
    };
  });
  expect(gaps.left, 'room between the box and its text, left').toBeGreaterThanOrEqual(12);
  expect(gaps.right, 'room between the box and its text, right').toBeGreaterThanOrEqual(12);
  await snap(page, 'analytics-empty-390');
});
