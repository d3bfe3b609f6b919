import { expect, test } from '@playwright/test';
import { expectReadableContrast } from '../../support/screenshots.ts';

// Every journey's screens pass the contrast check, so the journeys alone would not notice a check that finds
// nothing: this page has faint text in its own document and in a same-origin frame (ADR 107).
test('the contrast check fails on faint text, in the page and in its frames', async ({ page }) => {
  await page.route('http://contrast.test/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: route.request().url().endsWith('/frame')
        ? '<html lang="en"><p style="color:#bbb;background:#fff">Faint in the frame</p></html>'
        : `<html lang="en"><main><p style="color:#aaa;background:#fff">Faint text</p>
           <p style="color:#000;background:#fff">Readable text</p><iframe src="/frame" title="frame"></iframe></main></html>`,
    }),
  );
  await page.goto('http://contrast.test/');
  await expect(page.frameLocator('iframe').getByText('Faint in the frame')).toBeVisible();

  const failure = await expectReadableContrast(page, 'faint-text').then(
    () => undefined,
    (error: Error) => error.message,
  );
  expect(failure).toContain('text below WCAG AA contrast on faint-text');
  expect(failure).toContain('insufficient color contrast of 2.32 (foreground color: #aaaaaa');
  expect(failure).toContain('[frame http://contrast.test/frame] p:');
  expect(failure).toContain('insufficient color contrast of 1.91 (foreground color: #bbbbbb');
  expect(failure).not.toContain('#000000');

  // Made readable, the same page passes (axe is already loaded in both documents).
  await page.evaluate(() => {
    for (const paragraph of document.querySelectorAll('p')) paragraph.style.color = '#333';
  });
  await page.frames()[1]?.evaluate(() => {
    for (const paragraph of document.querySelectorAll('p')) paragraph.style.color = '#333';
  });
  await expectReadableContrast(page, 'readable-text');
});
