import { expect, type Page, test } from '@playwright/test';
import { type DemoInstance, signInAsDemo, startSeededDemo } from '../../support/demo-instance.ts';
import { snap } from '../../support/screenshots.ts';

/**
 * The incident list between a tablet and a desktop (768 to 1440 px, where the sidebar takes a share of the
 * window from 1024 up): either cards or a table whose message column is readable. Before, from 768 to about
 * 1250 px the Type column shrank to 0–20 px (messages printed one letter per line, rows ~1,000 px tall), the
 * TYPE and SEVERITY headers overlapped, the search box read "Searc", and at 1024 the page scrolled sideways.
 */
let demo: DemoInstance;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  demo = await startSeededDemo();
});
test.afterAll(async () => demo?.dispose());

/** What the visible list looks like: its kind, the narrowest Type cell, the tallest row, overlapping headers. */
const measure = (page: Page) =>
  page.evaluate(() => {
    const visible = (element: Element) => (element as HTMLElement).offsetParent !== null;
    const table = [...document.querySelectorAll('main table')].find(visible);
    const cards = [...document.querySelectorAll('main ul[aria-label="Incidents"]')].find(visible);
    if (!table) {
      const items = cards ? [...cards.querySelectorAll(':scope > li')] : [];
      return {
        kind: cards ? 'cards' : 'none',
        typeWidth: 0,
        tallestRow: Math.max(0, ...items.map((li) => li.getBoundingClientRect().height)),
        overlaps: [] as string[],
      };
    }
    const headers = [...table.querySelectorAll('th')].filter(visible);
    const overlaps: string[] = [];
    for (const th of headers) {
      // A header whose text is wider than its cell spills over the next one.
      const text = document.createRange();
      text.selectNodeContents(th);
      const textRight = text.getBoundingClientRect().right;
      const cellRight = th.getBoundingClientRect().right;
      if (textRight > cellRight + 0.5)
        overlaps.push(`${th.textContent?.trim()} (${textRight} > ${cellRight})`);
    }
    const typeHeader = headers.find((th) => th.textContent?.trim() === 'Type');
    const rows = [...table.querySelectorAll('tbody tr')];
    // A badge drawn over the message: a severity cell starting left of where the Type cell's text ends.
    for (const row of rows) {
      const cells = [...row.querySelectorAll('td')].filter(visible);
      const typeText = cells[1]?.querySelector('p');
      const badge = cells[2]?.firstElementChild;
      if (typeText && badge && badge.getBoundingClientRect().left < typeText.getBoundingClientRect().right) {
        overlaps.push(`severity badge over "${typeText.textContent}"`);
      }
    }
    return {
      kind: 'table',
      typeWidth: typeHeader?.getBoundingClientRect().width ?? 0,
      tallestRow: Math.max(0, ...rows.map((row) => row.getBoundingClientRect().height)),
      overlaps,
    };
  });

/** The search box shows its whole hint. */
const searchHintFits = (page: Page) =>
  page.getByRole('searchbox', { name: 'Search incidents' }).evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const hint = getComputedStyle(input, '::placeholder');
    const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    context.font = `${hint.fontWeight} ${hint.fontSize} ${hint.fontFamily}`;
    const room =
      input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    return Math.ceil(context.measureText(input.placeholder).width) <= room;
  });

test('from 768 to 1440 px the incident list is readable cards or a readable table', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsDemo(page, demo);
  await page.goto(`${demo.url}/console/${demo.projectId}/errorlogs?period=90d`);
  await expect(page.getByRole('table')).toBeVisible();
  for (const width of [768, 900, 1024, 1100, 1180, 1250, 1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `the page scrolls sideways at ${width} px`).toBeLessThanOrEqual(width);
    const list = await measure(page);
    expect(list.kind, `${width} px`).not.toBe('none');
    if (list.kind === 'table') {
      expect(list.typeWidth, `Type column at ${width} px`).toBeGreaterThanOrEqual(200);
      expect(list.overlaps, `${width} px`).toEqual([]);
    }
    expect(list.tallestRow, `tallest incident at ${width} px`).toBeLessThan(260);
    expect(await searchHintFits(page), `search hint at ${width} px`).toBe(true);
    if (width === 1024 || width === 1180) await snap(page, `incidents-list-${width}`);
  }
});
