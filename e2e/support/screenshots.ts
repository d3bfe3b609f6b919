import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const dir = join(import.meta.dirname, '..', 'screenshots');

/**
 * Saves a full-page screenshot under e2e/screenshots/ for people to look at (not compared automatically),
 * and checks the screen as shown against axe's colour-contrast rule (WCAG 2.1 AA, SC 1.4.3: 4.5:1 for
 * normal text, 3:1 for large), so every screen a journey photographs is also checked for contrast.
 */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
  await expectReadableContrast(page, name);
}

/** Fails with each offending text, its colours and ratio when any text on the page is below WCAG AA. */
export async function expectReadableContrast(page: Page, name: string): Promise<void> {
  // Colours are read as shown: a finite animation still running (the sign-in card's fade-in) would be
  // measured half-transparent. Endless ones (skeletons' pulse, spinners) are left running.
  // Two frames first, so that what the last render mounted has started its animations.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
      ),
  );
  const results = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  const failures = results.violations.flatMap((violation) =>
    violation.nodes.map((node) =>
      `${node.target.join(' ')}: ${node.failureSummary ?? ''}`.replace(/\s+/g, ' '),
    ),
  );
  expect(failures, `text below WCAG AA contrast on ${name}`).toEqual([]);
}
