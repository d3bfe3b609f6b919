import { expect, test } from '@playwright/test';
import { createProject, createVerifiedAccount, signInAs } from '../../support/api.ts';
import { snap } from '../../support/screenshots.ts';

/**
 * The SDK screen in two columns (1440 px): before, the Annotations and Ignored wallet errors cards touched
 * (one grid cell, no gap), and Export raw events stretched to that cell's height, a tall empty card.
 */
test('the SDK screen keeps a gap between stacked cards and no card stretched empty', async ({ page }) => {
  const account = await createVerifiedAccount('sdk-layout');
  const project = await createProject(account, 'Laid out dapp', ['localhost']);
  await signInAs(page, account);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/console/${project.id}/config`);
  await expect(page.getByRole('heading', { name: 'Export raw events' })).toBeVisible();

  const box = async (title: string) => {
    const card = page.locator('section', { has: page.getByRole('heading', { name: title, exact: true }) });
    return (await card.last().boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
  };
  const annotations = await box('Annotations');
  const ignored = await box('Ignored wallet errors');
  expect(ignored.y - (annotations.y + annotations.height)).toBeGreaterThanOrEqual(16);

  // Export's content ends at its button: the card ends a padding below it, not a column's height below.
  const exportCard = await box('Export raw events');
  const button = await page.getByRole('button', { name: 'Export events' }).boundingBox();
  expect(exportCard.y + exportCard.height - ((button?.y ?? 0) + (button?.height ?? 0))).toBeLessThan(48);
  await page.getByRole('heading', { name: 'Annotations' }).scrollIntoViewIfNeeded();
  await snap(page, 'sdk-card-layout-1440');
});
