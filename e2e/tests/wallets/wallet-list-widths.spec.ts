import { expect, type Page, test } from '@playwright/test';
import { type DemoInstance, signInAsDemo, startSeededDemo } from '../../support/demo-instance.ts';
import { snap } from '../../support/screenshots.ts';

/**
 * The Wallets list between a tablet and a desktop (768 to 1440 px, where the sidebar takes a share of the
 * window from 1024 up). Before, at 768–1024 px the table ran past its card's right edge (Source / campaign
 * off screen, Gas paid clipped, nothing saying it scrolled), addresses wrapped ("0x20a0… / 1ded"), the
 * stage select read "Any stag" and the source box "utm_sourc".
 */
let demo: DemoInstance;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  demo = await startSeededDemo();
});
test.afterAll(async () => demo?.dispose());

/** The visible list: a table that fits its box (nothing scrolled out of sight), or cards. */
const measure = (page: Page) =>
  page.evaluate(() => {
    const visible = (element: Element) => (element as HTMLElement).offsetParent !== null;
    const table = [...document.querySelectorAll('main table')].find(visible);
    const cards = [...document.querySelectorAll('main ul[aria-label="Wallets"]')].find(visible);
    const links = [...document.querySelectorAll('main a[href*="/wallets/0x"]')].filter(visible);
    // An address on more than one line: taller than its line height allows.
    const wrapped = links
      .filter((link) => {
        const style = getComputedStyle(link);
        return link.getBoundingClientRect().height > Number.parseFloat(style.lineHeight) * 1.5;
      })
      .map((link) => link.textContent);
    const box = table?.parentElement;
    return {
      kind: table ? 'table' : cards ? 'cards' : 'none',
      hiddenSideways: box ? box.scrollWidth - box.clientWidth : 0,
      wrapped,
    };
  });

/** Each filter field shows its whole hint (the select: its chosen option) in its own font. */
const clippedHints = (page: Page) =>
  page.getByRole('form', { name: 'Wallet filters' }).evaluate((form) => {
    const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    const clipped: string[] = [];
    for (const field of form.querySelectorAll('input, select')) {
      const element = field as HTMLInputElement | HTMLSelectElement;
      const style = getComputedStyle(element);
      const isSelect = element instanceof HTMLSelectElement;
      const text = isSelect
        ? (element.selectedOptions[0]?.text ?? '')
        : (element as HTMLInputElement).placeholder;
      const font = isSelect ? style : getComputedStyle(element, '::placeholder');
      context.font = `${font.fontWeight} ${font.fontSize} ${font.fontFamily}`;
      // A select keeps ~20 px on its right for its arrow.
      const room =
        element.clientWidth -
        Number.parseFloat(style.paddingLeft) -
        Number.parseFloat(style.paddingRight) -
        (isSelect ? 20 : 0);
      if (Math.ceil(context.measureText(text).width) > room) clipped.push(`${text} (${room} px)`);
    }
    return clipped;
  });

test('from 768 to 1440 px the wallet list fits its card and every filter shows its hint', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsDemo(page, demo);
  await page.goto(`${demo.url}/console/${demo.projectId}/wallets?period=90d`);
  await expect(page.getByRole('table')).toBeVisible();
  for (const width of [768, 900, 1024, 1100, 1180, 1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `the page scrolls sideways at ${width} px`).toBeLessThanOrEqual(width);
    const list = await measure(page);
    expect(list.kind, `${width} px`).not.toBe('none');
    expect(list.hiddenSideways, `table columns out of sight at ${width} px`).toBeLessThanOrEqual(0);
    expect(list.wrapped, `addresses on two lines at ${width} px`).toEqual([]);
    expect(await clippedHints(page), `filters at ${width} px`).toEqual([]);
    if (width === 768 || width === 1024) await snap(page, `wallets-list-${width}`);
  }
});
