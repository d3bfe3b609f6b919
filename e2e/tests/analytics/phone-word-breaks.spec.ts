import { expect, type Page, test } from '@playwright/test';
import { type DemoInstance, signInAsDemo, startSeededDemo } from '../../support/demo-instance.ts';
import { snap } from '../../support/screenshots.ts';

/**
 * On a 390 px phone, long names wrap at their seams or not at all: before, "quote_requeste / d",
 * "bridge_route_se / lected", "google.co / m", "swapExactETHForToken / s" and "WConn(U) / %" split inside a
 * word (break-all, overflow-wrap: anywhere), and nothing may run past its card either.
 */
let demo: DemoInstance;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  demo = await startSeededDemo();
});
test.afterAll(async () => demo?.dispose());

/** The words (letters and digits) of the main column drawn on more than one line, and what overflows the page. */
const splitWords = (page: Page) =>
  page.evaluate(() => {
    const split: string[] = [];
    const root = document.querySelector('main') as HTMLElement;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.offsetParent === null || parent.closest('[aria-hidden="true"], svg')) continue;
      for (const match of (node.textContent ?? '').matchAll(/[A-Za-z0-9]{2,}/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set(
          [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)),
        );
        if (lines.size > 1) split.push(match[0]);
      }
    }
    // Labels drawn by CSS (a phone table's data-label): one line each.
    const labels = [...root.querySelectorAll('[data-label]')]
      .filter((cell) => (cell as HTMLElement).offsetParent !== null)
      .filter((cell) => {
        const before = getComputedStyle(cell, '::before');
        return before.content !== 'none' && before.whiteSpace !== 'nowrap';
      })
      .map((cell) => cell.getAttribute('data-label'));
    const overflowing = [...root.querySelectorAll('*')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((element) => !element.closest('[class*="overflow-x-auto"]'))
      .map((element) => element.tagName)
      .slice(0, 5);
    return { split, labels, overflowing };
  });

test('a phone wraps goal, event, referrer, function and column names at their seams, never inside a word', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsDemo(page, demo);

  await page.goto(`${demo.url}/console/${demo.projectId}/analytics`);
  const referrers = page.locator('section', { has: page.getByRole('heading', { name: 'Top referrers' }) });
  await expect(referrers.getByRole('row', { name: /google\.com/ })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Event quote_requested')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'swapExactETHForTokens' }).first()).toBeVisible();
  expect(await splitWords(page)).toEqual({ split: [], labels: [], overflowing: [] });
  await snap(page, 'phone-word-breaks-analytics-390');

  await page.goto(`${demo.url}/console/${demo.projectId}/events`);
  await expect(page.getByRole('button', { name: 'bridge_route_selected' })).toBeVisible({ timeout: 30_000 });
  expect(await splitWords(page)).toEqual({ split: [], labels: [], overflowing: [] });

  await page.goto(`${demo.url}/console/${demo.projectId}/acquisition`);
  await expect(page.getByRole('row', { name: /Total/ }).first()).toBeVisible({ timeout: 30_000 });
  expect(await splitWords(page)).toEqual({ split: [], labels: [], overflowing: [] });
  await snap(page, 'phone-word-breaks-acquisition-390');
});
