import { expect, type Locator, test } from '@playwright/test';
import { createProject, createVerifiedAccount, signInAs } from '../../support/api.ts';

/**
 * A disabled control's text reads at 4.5:1 too (the console holds its disabled buttons to WCAG 2.1 AA, SC
 * 1.4.3, as its other text). Measured here on the button itself: its text colour against the first opaque
 * background under it, with the opacity of the button and its ancestors applied, the colours drawn on a
 * canvas to read them in sRGB (Tailwind's are oklch).
 */
const contrastOf = (button: Locator) =>
  button.evaluate(async (element) => {
    // A colour or opacity transition on the button or an ancestor, started as it was disabled, is not what a
    // reader sees: measured mid-way, a button read 4.24:1 once. Wait for the finite ones to end first.
    await Promise.all(
      document
        .getAnimations()
        .filter((animation) => {
          const effect = animation.effect as KeyframeEffect | null;
          const target = effect?.target;
          return (
            target instanceof Node && target.contains(element) && effect?.getTiming().iterations !== Infinity
          );
        })
        .map((animation) => animation.finished.catch(() => undefined)),
    );
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('no canvas');
    const rgba = (color: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(0, 0, 1, 1).data;
      return { rgb: [r, g, b], alpha: a / 255 };
    };
    const over = (top: number[], alpha: number, under: number[]) =>
      top.map((value, index) => value * alpha + (under[index] ?? 255) * (1 - alpha));
    // The backgrounds from the page down to the button, each drawn over the ones beneath.
    const layers: HTMLElement[] = [];
    for (let node: HTMLElement | null = element as HTMLElement; node; node = node.parentElement)
      layers.unshift(node);
    let background = [255, 255, 255];
    let opacity = 1;
    for (const layer of layers) {
      const style = getComputedStyle(layer);
      const fill = rgba(style.backgroundColor);
      background = over(fill.rgb, fill.alpha, background);
      if (layer !== element) continue;
      opacity = Number(style.opacity);
    }
    for (let node = element.parentElement; node; node = node.parentElement)
      opacity *= Number(getComputedStyle(node).opacity);
    const text = rgba(getComputedStyle(element).color);
    // Faded with opacity, both the text and the button's own fill show the page's background through.
    const shown = over(over(text.rgb, text.alpha, background), opacity, [255, 255, 255]);
    const under = over(background, opacity, [255, 255, 255]);
    const luminance = (rgb: number[]) => {
      const [r = 0, g = 0, b = 0] = rgb.map((value) => {
        const channel = value / 255;
        return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [light, dark] = [luminance(shown), luminance(under)].sort((a, b) => b - a);
    return Math.round((((light ?? 1) + 0.05) / ((dark ?? 0) + 0.05)) * 100) / 100;
  });

test('disabled buttons read at 4.5:1: a primary while it saves, and the message of a reversed range', async ({
  page,
}) => {
  const account = await createVerifiedAccount('disabled-contrast');
  const project = await createProject(account, 'Disabled dapp', ['localhost']);
  await signInAs(page, account);

  // A primary button is disabled while its request runs: the annotation's POST is held until measured.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/annotations', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    await held;
    await route.continue();
  });
  await page.goto(`/console/${project.id}/config`);
  const form = page.getByRole('form', { name: 'Add an annotation' });
  await form.getByLabel('Note').fill('Deployed v2.1');
  const add = form.getByRole('button', { name: 'Add annotation' });
  await add.click();
  await expect(add).toBeDisabled();
  expect.soft(await contrastOf(add), 'Add annotation while saving').toBeGreaterThanOrEqual(4.5);
  release();
  await expect(add).toBeEnabled();

  // A reversed range no longer disables Apply range (its reason sat in a title): the reason shows
  // beside the dates, which say they are invalid; its red reads at 4.5:1 too.
  await page.goto(`/console/${project.id}/analytics`);
  await page.getByLabel('From', { exact: true }).fill('2026-03-10');
  await page.getByLabel('To', { exact: true }).fill('2026-03-01');
  await expect(page.getByRole('button', { name: 'Apply range' })).toBeEnabled();
  const reason = page.getByText('The start is after the end.');
  await expect(reason).toBeVisible();
  await expect(page.getByLabel('From', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  expect(await contrastOf(reason), 'the reversed range message').toBeGreaterThanOrEqual(4.5);
});
