import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, type Frame, type Page } from '@playwright/test';
import { checkChosenTexts, readTextSignatures } from './contrast-signatures.ts';

const dir = join(import.meta.dirname, '..', 'screenshots');
/**
 * `npm test` sets E2E_SCREENSHOTS=0: its journeys still check every screen's contrast but write none of the
 * ~150 full-page PNGs nobody opens there (ADR 107); `npm run test:e2e` alone keeps them for people to look at.
 */
export const savingScreenshots = process.env.E2E_SCREENSHOTS !== '0';

/**
 * axe-core's minified build, the same version and rules as the package's `axe.source` (its unminified
 * `axe.js`, 1.3 MB): a document compiles 0.6 MB instead, once per document checked.
 */
export const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Saves a full-page screenshot under e2e/screenshots/ for people to look at (not compared automatically),
 * and checks the screen as shown against axe's colour-contrast rule (WCAG 2.1 AA, SC 1.4.3: 4.5:1 for
 * normal text, 3:1 for large), so every screen a journey photographs is also checked for contrast.
 */
export async function snap(page: Page, name: string): Promise<void> {
  if (savingScreenshots) {
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
  }
  await expectReadableContrast(page, name);
}

/**
 * The signatures of the texts axe passed in this test worker: a text of the same signature later on, in any page
 * or frame, is the same computation for axe, and is not handed to it again (ADR 162). A signature holds every
 * computed value axe's computation reads, media queries and state already applied, so the page, the viewport or
 * the journey it was first seen in adds nothing to it.
 */
const passed = new Set<string>();
const printsCounts = process.env.E2E_CONTRAST_COUNTS === '1';

/**
 * The colour-contrast violations of one frame's document, each as "selector: what to fix". Only the texts whose
 * signature (`readTextSignatures`) has not passed in this worker yet, or which are never cached, go to axe's
 * `color-contrast` rule; when there are none, axe is not even loaded. axe-core is loaded into the document once
 * (it stays until the frame navigates). Frames are checked one by one (`iframes: false`), each in its own document.
 */
async function frameContrastFailures(frame: Frame): Promise<string[]> {
  const counts = await frame.evaluate(readTextSignatures, [...passed]);
  if (printsCounts) console.log(`contrast texts ${JSON.stringify(counts)}`);
  if (counts.fresh + counts.uncached === 0) return [];
  const loaded = await frame.evaluate(() => 'axe' in window);
  if (!loaded) await frame.evaluate(axeSource);
  const result = await frame.evaluate(checkChosenTexts);
  for (const signature of result.passed) passed.add(signature);
  return result.failures;
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
  const failures: string[] = [];
  for (const frame of page.frames()) {
    const prefix = frame === page.mainFrame() ? '' : `[frame ${frame.url()}] `;
    failures.push(...(await frameContrastFailures(frame)).map((failure) => prefix + failure));
  }
  expect(failures, `text below WCAG AA contrast on ${name}`).toEqual([]);
}
