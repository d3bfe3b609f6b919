import { expect, type Locator, type Page, test } from '@playwright/test';
import { type DemoInstance, logInAsDemo, startSeededDemo } from '../../support/demo-instance.ts';
import { snap } from '../../support/screenshots.ts';

/**
 * Every console screen on a 390 px phone (and at 1280 px for comparison): the page is never wider than
 * the screen, so nothing (a column, the last sidebar link, the Inspect modal) hides off to the side.
 * Screenshots land in e2e/screenshots/ as layout-<width>-<screen>.png for people to look at.
 */
let demo: DemoInstance;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(240_000);
  demo = await startSeededDemo({ users: 300 });
});
test.afterAll(async () => {
  await demo?.dispose();
});

/** How far the page reaches past the viewport's right edge, in CSS pixels (0 when it fits). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** The element lies between the left and right edges of the screen (scrolled to vertically). */
async function expectWithinWidth(locator: Locator, width: number): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
}

/**
 * What a phone hides: tables (and the incident's stack) that scroll sideways inside their card, and
 * values cut with an ellipsis. Each is described by its tag, classes and text.
 */
const hiddenOnPhone = (page: Page) =>
  page.evaluate(() => {
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
    const found: string[] = [];
    for (const element of document.querySelectorAll('main *')) {
      // GraphiQL's editors scroll sideways on purpose.
      if (!(element instanceof HTMLElement)) continue;
      if (element.closest('.polyflow-graphiql')) continue;
      const style = getComputedStyle(element);
      const isCut = element.scrollWidth > element.clientWidth + 1;
      if (!isCut || element.clientWidth === 0) continue;
      const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
      if (scrolls && (element.querySelector('table') || element.tagName === 'PRE')) {
        found.push(`scrolls sideways: ${name(element)}`);
      } else if (style.textOverflow === 'ellipsis' && element.closest('table, dl, [role="region"]')) {
        found.push(`cut: ${name(element)}`);
      }
    }
    return found;
  });

async function expectFits(page: Page, width: number, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  expect(await overflow(page), `${name} is wider than a ${width} px screen`).toBeLessThanOrEqual(0);
  if (width === 390) expect(await hiddenOnPhone(page), `${name} hides values on a phone`).toEqual([]);
  await snap(page, `layout-${width}-${name}`);
}

for (const width of [390, 1280]) {
  test(`every screen fits a ${width} px wide screen`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });

    await page.goto(`${demo.url}/`);
    await expectFits(page, width, 'login');
    await page.goto(`${demo.url}/?signup`);
    await expectFits(page, width, 'signup');
    await page.goto(`${demo.url}/verify?email=someone%40example.com`);
    await expectFits(page, width, 'verify');

    await logInAsDemo(page, demo);
    const base = `${demo.url}/console/${demo.projectId}`;
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    // The sidebar's last link is on screen, not cut off at the edge.
    const lastLink = page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'GraphQL API' });
    await expect(lastLink).toBeInViewport({ ratio: 1 });
    // Charts load in their own chunk; on a busy machine that can take a while.
    await expect(page.locator('svg.recharts-surface').first()).toBeVisible({ timeout: 30_000 });
    await expectFits(page, width, 'analytics');
    // The retention cohorts (weekly over 90 days): on a phone four weeks at a time, others a tap away.
    await page.goto(`${base}/analytics?period=90d`);
    const heatmap = page.getByTestId('cohort-heatmap');
    await expect(heatmap.getByRole('columnheader').first()).toBeVisible({ timeout: 30_000 });
    if (width === 390) {
      await expectWithinWidth(heatmap.getByRole('columnheader', { name: 'W4', exact: true }), width);
      await expect(heatmap.getByRole('columnheader', { name: 'W5', exact: true })).toBeHidden();
      await page.getByRole('button', { name: 'Weeks 9 to 12' }).click();
      await expectWithinWidth(heatmap.getByRole('columnheader', { name: 'W12', exact: true }), width);
      await expect(heatmap.getByRole('columnheader', { name: 'W4', exact: true })).toBeHidden();
      await expectFits(page, width, 'analytics-cohorts');
    } else {
      await expect(heatmap.getByRole('columnheader', { name: 'W12', exact: true })).toBeVisible();
    }

    await page.goto(`${base}/analytics?tab=history`);
    await expect(page.getByRole('button', { name: /^Inspect transaction/ }).first()).toBeVisible();
    await expectFits(page, width, 'analytics-history');
    await page
      .getByRole('button', { name: /^Inspect transaction/ })
      .first()
      .click();
    const modal = page.getByRole('dialog');
    await expect(modal).toBeVisible();
    await expect(modal).toBeInViewport();
    await expectFits(page, width, 'analytics-inspect');
    await page.keyboard.press('Escape');

    await page.goto(`${base}/acquisition?period=90d`);
    await expect(page.getByRole('table')).toBeVisible();
    // The TXS column is on screen without scrolling sideways.
    await expectWithinWidth(page.getByRole('table').getByRole('cell').nth(2), width);
    await expectFits(page, width, 'acquisition');

    await page.goto(`${base}/errorlogs?period=90d`);
    const inspect = page
      .getByRole('link', { name: /^Inspect incident/ })
      .locator('visible=true')
      .first();
    await expect(inspect).toBeVisible();
    await expectFits(page, width, 'incidents');
    await inspect.click();
    await expect(page.getByRole('button', { name: 'Resolve' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Error log' })).toBeVisible();
    await expectFits(page, width, 'incident');

    await page.goto(`${base}/config`);
    await expect(page.getByRole('heading', { name: 'API Key' })).toBeVisible();
    await expectFits(page, width, 'config');

    await page.goto(`${base}/members`);
    await expect(page.getByRole('heading', { name: 'Invite someone' })).toBeVisible();
    await expectFits(page, width, 'members');

    await page.goto(`${base}/alerts`);
    await expect(page.getByText('No alert rules yet')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Report subscriptions' })).toBeVisible();
    await expectFits(page, width, 'alerts');

    await page.goto(`${base}/audit-log`);
    await expect(page.getByRole('list', { name: 'Audit log entries' })).toBeVisible();
    await expectFits(page, width, 'audit-log');

    await page.goto(`${base}/uicomponents`);
    await expect(page.getByRole('heading', { name: 'Gas Station' })).toBeVisible();
    await expectFits(page, width, 'components');

    await page.getByRole('button', { name: /switch project/i }).click();
    await expect(page.getByRole('dialog', { name: 'My Projects' })).toBeVisible();
    await expectFits(page, width, 'switcher');
  });
}
