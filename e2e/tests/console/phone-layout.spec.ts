import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import { DEMO_LOGIN, type DemoInstance, logInAsDemo, startSeededDemo } from '../../support/demo-instance.ts';
import { snap } from '../../support/screenshots.ts';
import { logInByApi, signedInState } from '../../support/session.ts';

/**
 * Every console screen on a 390 px phone (and at 1280 px for comparison): the page is never wider than
 * the screen, so nothing (a column, the last sidebar link, the Inspect modal) hides off to the side.
 * Screenshots land in e2e/screenshots/ as layout-<width>-<screen>.png for people to look at.
 *
 * One test per screen (or a few small ones) and width, spread over the workers: each worker has its own
 * copy of the demo data and logs in once (through the API; the Analytics test logs in through the form).
 * Its signed-in tests share one page in one browser context, signed in with that session (the console
 * keeps it in localStorage): each test sets its width and loads its screen, instead of opening a context
 * of its own (which, with a storage state, costs a page load of its own to write that state).
 */
let demo: DemoInstance;
let signedIn: BrowserContext;
let signedInPage: Page;
test.describe.configure({ mode: 'parallel' });
test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  demo = await startSeededDemo();
  const storageState = signedInState(demo.url, await logInByApi(demo.url, DEMO_LOGIN));
  signedIn = await browser.newContext({ storageState, viewport: viewport(1280) });
  signedInPage = await signedIn.newPage();
});
test.afterAll(async () => {
  await signedIn?.close();
  await demo?.dispose();
});

const viewport = (width: number) => ({ width, height: width === 390 ? 844 : 900 });

/** The worker's signed-in page at `width` on the demo project's `path`, loaded afresh. */
async function consolePage(width: number, path: string): Promise<Page> {
  const page = signedInPage;
  await page.setViewportSize(viewport(width));
  await page.goto(`${demo.url}/console/${demo.projectId}${path}`);
  return page;
}

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

/**
 * The screen has loaded as a person sees it: nothing on it says it is still loading (charts, tiles and
 * refreshing tables carry aria-busy; lists and screens that wait say "Loading…"). Each test first waits for
 * its screen's own element (a heading, a row); this waits for the rest of what the screen shows.
 */
async function expectLoaded(page: Page, name: string): Promise<void> {
  await expect(page.locator('[aria-busy="true"]'), `${name}: something still busy`).toHaveCount(0);
  await expect(page.locator('main').getByText(/^Loading\b/), `${name}: something still loading`).toHaveCount(
    0,
  );
}

async function expectFits(page: Page, width: number, name: string): Promise<void> {
  await expectLoaded(page, name);
  expect(await overflow(page), `${name} is wider than a ${width} px screen`).toBeLessThanOrEqual(0);
  if (width === 390) expect(await hiddenOnPhone(page), `${name} hides values on a phone`).toEqual([]);
  await snap(page, `layout-${width}-${name}`);
}

for (const width of [390, 1280]) {
  test(`${width} px: log in, sign up and verify`, async ({ page }) => {
    await page.setViewportSize(viewport(width));
    await page.goto(`${demo.url}/`);
    await expect(page.getByRole('heading', { name: 'Log In' })).toBeVisible();
    await expectFits(page, width, 'login');
    await page.goto(`${demo.url}/?signup`);
    await expect(page.getByRole('heading', { name: 'Sign Up' })).toBeVisible();
    await expectFits(page, width, 'signup');
    await page.goto(`${demo.url}/verify?email=someone%40example.com`);
    await expect(page.getByRole('heading', { name: 'You must verify your email' })).toBeVisible();
    await expectFits(page, width, 'verify');
  });

  test(`${width} px: Analytics after logging in, the sidebar's last link on screen`, async ({ page }) => {
    await page.setViewportSize(viewport(width));
    await logInAsDemo(page, demo);
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    // The sidebar's last link is on screen, not cut off at the edge.
    const lastLink = page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'GraphQL API' });
    await expect(lastLink).toBeInViewport({ ratio: 1 });
    // Charts load in their own chunk; on a busy machine that can take a while.
    await expect(page.locator('svg.recharts-surface').first()).toBeVisible({ timeout: 30_000 });
    await expectFits(page, width, 'analytics');
  });

  test(`${width} px: the retention cohorts`, async () => {
    // Weekly over 90 days: on a phone four weeks at a time, others a tap away.
    const page = await consolePage(width, '/analytics?period=90d');
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
  });

  test(`${width} px: the transaction history and Inspect`, async () => {
    const page = await consolePage(width, '/analytics?tab=history');
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
  });

  test(`${width} px: Acquisition`, async () => {
    const page = await consolePage(width, '/acquisition?period=90d');
    await expect(page.getByRole('table')).toBeVisible();
    // The TXS column is on screen without scrolling sideways.
    await expectWithinWidth(page.getByRole('table').getByRole('cell').nth(2), width);
    await expectFits(page, width, 'acquisition');
  });

  test(`${width} px: the incidents and one incident`, async () => {
    const page = await consolePage(width, '/errorlogs?period=90d');
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
  });

  test(`${width} px: the SDK screen and Members`, async () => {
    const page = await consolePage(width, '/config');
    await expect(page.getByRole('heading', { name: 'API Key' })).toBeVisible();
    await expectFits(page, width, 'config');

    await page.goto(`${demo.url}/console/${demo.projectId}/members`);
    await expect(page.getByRole('heading', { name: 'Invite someone' })).toBeVisible();
    await expectFits(page, width, 'members');
  });

  test(`${width} px: Alerts and the audit log`, async () => {
    const page = await consolePage(width, '/alerts');
    await expect(page.getByText('No alert rules yet')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Report subscriptions' })).toBeVisible();
    await expectFits(page, width, 'alerts');

    await page.goto(`${demo.url}/console/${demo.projectId}/audit-log`);
    await expect(page.getByRole('list', { name: 'Audit log entries' })).toBeVisible();
    await expectFits(page, width, 'audit-log');
  });

  test(`${width} px: the components and the project switcher`, async () => {
    const page = await consolePage(width, '/uicomponents');
    await expect(page.getByRole('heading', { name: 'Gas Station' })).toBeVisible();
    await expectFits(page, width, 'components');

    await page.getByRole('button', { name: /switch project/i }).click();
    await expect(page.getByRole('dialog', { name: 'My Projects' })).toBeVisible();
    await expectFits(page, width, 'switcher');
  });
}
