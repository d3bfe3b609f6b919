import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { createProject, createVerifiedAccount, PolyflowApi, signInAs } from '../../support/api.ts';
import { snap } from '../../support/screenshots.ts';

/** Where this session's screenshots of the touched screen go, beside the journey's own (outside the repo). */
const SCREENS = process.env.POLYFLOW_SCREENS_DIR;

test('the export card exports local days of the project zone with its local time column', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const account = await createVerifiedAccount('export-local-time');
  const project = await createProject(account, 'Berlin dapp', ['localhost']);
  await new PolyflowApi(account.token).expectOk('PATCH', `/projects/${project.id}`, {
    timeZone: 'Europe/Berlin',
  });
  // Signed in without the form (logging in has journeys of its own).
  await signInAs(page, account);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/console/${project.id}/config`);
  const card = page.locator('section', { has: page.getByRole('heading', { name: 'Export raw events' }) });
  await expect(card.getByText(/days chosen \(Europe\/Berlin,/)).toBeVisible();
  await card.getByLabel('First day').fill('2026-03-28');
  await card.getByLabel('Last day').fill('2026-03-29');
  await card.getByRole('checkbox', { name: /Add local time/ }).check();

  const asked = page.waitForRequest((request) => request.url().includes('/export/events'));
  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Export events' }).click();
  const query = new URL((await asked).url()).searchParams;
  expect(Object.fromEntries(query)).toEqual({
    from: '2026-03-27T23:00:00.000Z',
    to: '2026-03-29T22:00:00.000Z',
    format: 'csv',
    localTime: 'true',
  });
  const file = readFileSync(await (await download).path(), 'utf8');
  expect(file.split('\r\n')[0]?.endsWith(',local_time')).toBe(true);
  await expect(card.getByRole('status')).toContainText('0 events');

  await snap(page, '72-export-local-time-1440');
  if (SCREENS) {
    mkdirSync(SCREENS, { recursive: true });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENS}/sdk-export-card-1440.png` });
    await page.screenshot({ path: `${SCREENS}/sdk-screen-1440-full.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await card.scrollIntoViewIfNeeded();
  await snap(page, '73-export-local-time-390');
  if (SCREENS) {
    await page.screenshot({ path: `${SCREENS}/sdk-export-card-390.png` });
    await page.screenshot({ path: `${SCREENS}/sdk-screen-390-full.png`, fullPage: true });
  }
});
