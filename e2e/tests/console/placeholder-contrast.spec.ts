import { expect, type Page, test } from '@playwright/test';
import { createProject, createVerifiedAccount, signInAs } from '../../support/api.ts';

/**
 * Placeholder text must read at 4.5:1 like any text (WCAG 2.1 AA, SC 1.4.3), but axe's colour-contrast rule
 * (the check every snap() runs) does not look at `::placeholder`: this measures each placeholder of a screen
 * against its field's background, the colours drawn on a canvas to read them in sRGB (Tailwind's are oklch).
 */
async function placeholderContrasts(page: Page): Promise<{ placeholder: string; ratio: number }[]> {
  return page.evaluate(() => {
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('no canvas');
    const rgb = (color: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = '#fff';
      context.fillRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const luminance = (color: string) => {
      const [r = 0, g = 0, b = 0] = rgb(color).map((value) => {
        const channel = value / 255;
        return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    return [...document.querySelectorAll<HTMLInputElement>('input[placeholder]')].map((input) => {
      const text = luminance(getComputedStyle(input, '::placeholder').color);
      const background = luminance(getComputedStyle(input).backgroundColor);
      const [light, dark] = text > background ? [text, background] : [background, text];
      return {
        placeholder: input.placeholder,
        ratio: Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100,
      };
    });
  });
}

test('every placeholder of the Wallets and Incidents screens reads at 4.5:1 or more', async ({ page }) => {
  const account = await createVerifiedAccount('placeholders');
  const project = await createProject(account, 'Placeholder dapp', ['localhost']);
  await signInAs(page, account);
  for (const [screen, field] of [
    ['wallets', 'Address'],
    ['errorlogs', 'Search incidents'],
  ] as const) {
    await page.goto(`/console/${project.id}/${screen}`);
    await expect(page.getByLabel(field, { exact: true })).toBeVisible();
    const measured = await placeholderContrasts(page);
    expect(measured.length).toBeGreaterThan(1);
    expect(measured.filter(({ ratio }) => ratio < 4.5)).toEqual([]);
  }
});
