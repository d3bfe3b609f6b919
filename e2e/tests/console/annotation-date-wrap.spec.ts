import { expect, type Locator, test } from '@playwright/test';
import { createProject, createVerifiedAccount, signInAs } from '../../support/api.ts';
import { snap } from '../../support/screenshots.ts';

/**
 * The YYYY-MM-DD dates of `scope`'s paragraphs that the browser broke across lines ("2015-01-" / "01"),
 * measured on the text itself: a date's characters all lie on one line box.
 */
const brokenDates = (scope: Locator) =>
  scope.evaluate((root) => {
    const broken: string[] = [];
    for (const paragraph of root.querySelectorAll('p')) {
      const walker = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\d{4}-\d{2}-\d{2}/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  });

test('the annotation dates’ error keeps each date on one line, on a 390 px phone and at any width', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const account = await createVerifiedAccount('date-wrap');
  const project = await createProject(account, 'Dated dapp', ['localhost']);
  await signInAs(page, account);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/console/${project.id}/config`);

  const form = page.getByRole('form', { name: 'Add an annotation' });
  await form.getByLabel('Note').fill('Launch');
  await form.getByLabel('Date', { exact: true }).fill('2014-12-31');
  await form.getByLabel('Until (optional)').fill('2099-01-01');
  await form.getByRole('button', { name: 'Add annotation' }).click();
  const message = /^The date must be from 2015-01-01 to \d{4}-\d{2}-\d{2} \(a year after today\)\.$/;
  await expect(form.getByText(message)).toHaveCount(2);
  expect(await brokenDates(form), 'dates broken at 390 px').toEqual([]);
  await form.scrollIntoViewIfNeeded();
  await snap(page, 'annotation-date-error-390');

  // Where a line ends depends on the latest date (a year after today) and the fonts: every width from a
  // small phone to a tablet's two columns, so that one of them ends a line inside a date whatever the day
  // (a line ended inside one over some 25 px of width at a time, twice in this span, on the old code).
  const brokenAt: string[] = [];
  for (let width = 320; width <= 760; width += 4) {
    await page.setViewportSize({ width, height: 844 });
    const broken = await brokenDates(form);
    if (broken.length > 0) brokenAt.push(`${width} px: ${broken.join(', ')}`);
  }
  expect(brokenAt, 'widths at which a date broke across lines').toEqual([]);
});
