import { expect, type Page, test } from '@playwright/test';
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

/** The check's error message, or undefined when the page passed. */
const failureOf = (page: Page, name: string) =>
  expectReadableContrast(page, name).then(
    () => undefined,
    (error: Error) => error.message,
  );

// The check hands axe only the texts whose signature has not passed in this worker yet (ADR 162): each case below
// first passes a screen, so its texts are cached, then shows a faint text that a looser cache would let through.
test('a text of classes seen before, on a different background, is checked again', async ({ page }) => {
  await page.setContent(`<html lang="en"><style>.note { color: #767676; font-size: 14px }</style>
    <main style="background:#fff"><p class="note">Readable note</p><section id="later"></section></main></html>`);
  expect(await failureOf(page, 'note-on-white')).toBeUndefined();

  await page.evaluate(() => {
    const later = document.querySelector('#later');
    if (later) later.innerHTML = '<div style="background:#ddd"><p class="note">Note on grey</p></div>';
  });
  const failure = await failureOf(page, 'note-on-grey');
  expect(failure).toContain('foreground color: #767676, background color: #dddddd');
  expect(failure).not.toContain('background color: #ffffff');
});

test('one faint badge among many passing rows fails the check', async ({ page }) => {
  const rows = (faintRow: number) =>
    Array.from(
      { length: 120 },
      (_, index) =>
        `<tr><td>Row ${index}</td><td><span class="badge" style="color:${index === faintRow ? '#aaa' : '#555'}">ok</span></td></tr>`,
    ).join('');
  await page.setContent(
    `<html lang="en"><table style="background:#fff"><tbody>${rows(-1)}</tbody></table></html>`,
  );
  expect(await failureOf(page, 'badges-readable')).toBeUndefined();

  await page.evaluate((html) => {
    const body = document.querySelector('tbody');
    if (body) body.innerHTML = html;
  }, rows(87));
  const failure = await failureOf(page, 'one-badge-faint');
  expect(failure).toContain('insufficient color contrast of 2.32 (foreground color: #aaaaaa');
  expect(failure?.match(/insufficient color contrast/g)).toHaveLength(1);
});

test('the same text fails once its colour changes', async ({ page }) => {
  await page.setContent(`<html lang="en"><style>.status.is-stale { color: #b0b0b0 }</style>
    <main style="background:#fff"><p class="status" style="color:#333">Synced</p></main></html>`);
  expect(await failureOf(page, 'status-fresh')).toBeUndefined();

  await page.evaluate(() => {
    const status = document.querySelector<HTMLElement>('.status');
    status?.style.removeProperty('color');
    status?.classList.add('is-stale');
  });
  expect(await failureOf(page, 'status-stale')).toContain('foreground color: #b0b0b0');
});

test('a text laid over a box that is not its ancestor is checked again', async ({ page }) => {
  // Same colour, same ancestors' paint as the label that passed: only what lies under it differs.
  await page.setContent(`<html lang="en"><body style="background:#fff">
    <div><span class="label" style="color:#444">On white</span></div>
    <div style="position:relative;height:40px"><div style="position:absolute;inset:0;background:#222"></div>
      <span class="label" style="color:#444;position:relative">On dark</span></div></body></html>`);
  const failure = await failureOf(page, 'label-over-dark-box');
  expect(failure).toContain('foreground color: #444444, background color: #222222');

  // Checked alone first, the label on white caches its signature; the one on the dark box still fails.
  await page.evaluate(() => {
    for (const label of document.querySelectorAll<HTMLElement>('.label')) label.style.color = '#454545';
    const dark = document.querySelectorAll('body > div')[1] as HTMLElement;
    dark.style.display = 'none';
  });
  expect(await failureOf(page, 'label-on-white')).toBeUndefined();
  await page.evaluate(() => {
    (document.querySelectorAll('body > div')[1] as HTMLElement).style.display = '';
  });
  expect(await failureOf(page, 'label-over-dark-box-again')).toContain('foreground color: #454545');
});

test("a form control's faint text fails the check, its readable twin passes", async ({ page }) => {
  // axe checks the value a text field shows though it has no text node: such controls are texts here too.
  await page.setContent(`<html lang="en"><main style="background:#fff"><label>Name
    <input value="Readable value" style="color:#333;background:#fff"></label></main></html>`);
  expect(await failureOf(page, 'field-readable')).toBeUndefined();

  await page.evaluate(() => {
    const field = document.querySelector('input');
    if (field) field.style.color = '#b5b5b5';
  });
  expect(await failureOf(page, 'field-faint')).toContain('foreground color: #b5b5b5');
});
