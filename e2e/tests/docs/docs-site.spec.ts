import { expect, type Page, test } from '@playwright/test';
import { axeSource } from '../../support/screenshots.ts';

// The documentation site at /docs/ (VitePress, built by `npm run build:docs` before the journeys), as a reader
// with a screen reader and a reader on a phone meet it: every WCAG 2.1 A and AA rule axe checks, in the light
// and the dark scheme, on the pages whose parts the theme draws (the home page's buttons, code blocks, the
// sidebar, a long table), and a page's address without `.html`.

type Violation = { id: string; nodes: { target: string[]; failureSummary?: string }[] };

/** axe's WCAG 2.1 A and AA rules on the page, each failure as "rule: element: what to fix". */
async function wcagFailures(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(
    async () =>
      (
        await (
          window as unknown as {
            axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> };
          }
        ).axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] })
      ).violations,
  );
  return violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
  );
}

const PAGES = [
  { path: '', heading: 'Polyflow' },
  { path: 'getting-started', heading: 'Getting started' },
  { path: 'decisions/', heading: 'Decision records' },
];

/**
 * Where each scheme is checked: every page on a desktop and on a 390 px phone in the light scheme (the menu bar
 * and sidebar differ by width); in the dark scheme, which changes colours alone, the pages whose colours the
 * theme sets (the brand button, code blocks) on a desktop.
 */
const CHECKS = [
  { scheme: 'light', viewport: { width: 1280, height: 900 }, pages: PAGES },
  { scheme: 'light', viewport: { width: 390, height: 844 }, pages: PAGES.slice(0, 2) },
  { scheme: 'dark', viewport: { width: 1280, height: 900 }, pages: PAGES.slice(0, 2) },
] as const;

test('the documentation site reads at WCAG 2.1 AA in both schemes, on a desktop and a 390 px phone', async ({
  browser,
}) => {
  for (const { scheme, viewport, pages } of CHECKS) {
    const context = await browser.newContext({ colorScheme: scheme, viewport });
    const page = await context.newPage();
    for (const { path, heading } of pages) {
      // Addresses without `.html`, as people type and share them: the page itself, not the site's 404.
      const response = await page.goto(`/docs/${path}`);
      expect(response?.status(), path).toBe(200);
      await expect(page.locator('h1').first()).toContainText(heading);
      expect(await wcagFailures(page), `${path || 'home'} at ${viewport.width} px, ${scheme}`).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path || 'home'} scrolls sideways at ${viewport.width} px`).toBeLessThanOrEqual(0);
    }
    if (scheme === 'light' && viewport.width === 1280) {
      // The decision records' list links each record, which opens with the site's sidebar.
      await page.goto('/docs/decisions');
      await page.getByRole('link', { name: /^Gas paid and burned count each receipt hash once/ }).click();
      await expect(page.locator('h1').first()).toContainText('165:');
    }
    await context.close();
  }
});
