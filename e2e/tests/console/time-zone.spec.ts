import { expect, test } from '@playwright/test';
import { createProject, createVerifiedAccount, signInAs } from '../../support/api.ts';
import { snap } from '../../support/screenshots.ts';

const dayIn = (zone: string, at: number) =>
  new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: zone,
  }).format(at);

test('changing the project time zone moves Today, and an annotation shows on settings', async ({ page }) => {
  test.setTimeout(180_000);
  const account = await createVerifiedAccount('time-zone');
  const project = await createProject(account, 'Zoned dapp', ['localhost']);
  // Signed in without the form (logging in has journeys of its own); its only project opens by itself.
  await signInAs(page, account);
  await page.goto('/console/analytics');
  await expect(page).toHaveURL(new RegExp(`/console/${project.id}/analytics`));

  // A zone whose date differs from UTC's right now: +14 h late in the UTC day, −11 h early in it.
  const now = Date.now();
  const zone = new Date(now).getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
  expect(dayIn(zone, now)).not.toBe(dayIn('UTC', now));

  await page.goto(`/console/${project.id}/analytics?period=today`);
  await expect(page.getByTestId('period-label')).toHaveText(`Today (${dayIn('UTC', now)}, UTC)`);

  await page.goto(`/console/${project.id}/config`);
  const card = page.locator('section', { has: page.getByRole('heading', { name: 'Time zone' }) });
  await expect(card.getByTestId('current-time-zone')).toHaveText('UTC');
  await card.getByLabel('Time zone').fill('Mars/Olympus_Mons');
  await expect(card.getByText('Choose a zone of the list')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Save' })).toBeDisabled();
  await card.getByLabel('Time zone').fill(zone);
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByTestId('current-time-zone')).toHaveText(zone);

  const annotations = page.locator('section', { has: page.getByRole('heading', { name: 'Annotations' }) });
  await annotations.getByLabel('Note').fill('Deployed v2.1');
  await annotations.getByRole('button', { name: 'Add annotation' }).click();
  await expect(
    annotations.getByRole('list', { name: 'Annotations' }).getByText('Deployed v2.1'),
  ).toBeVisible();
  await snap(page, '70-time-zone-and-annotations-1280');

  // The series the screen asks for start at the zone's midnight, and the label names the zone's day.
  const series = page.waitForRequest(
    (request) => request.url().endsWith('/api/graphql') && (request.postData() ?? '').includes('granularity'),
  );
  await page.goto(`/console/${project.id}/analytics?period=today`);
  await expect(page.getByTestId('period-label')).toHaveText(`Today (${dayIn(zone, now)}, ${zone})`);
  const variables = JSON.parse((await series).postData() ?? '{}').variables as { from: string; to: string };
  const fromLocal = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(Date.parse(variables.from));
  expect(fromLocal).toBe('00:00');
  expect(dayIn(zone, Date.parse(variables.from))).toBe(dayIn(zone, now));

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/console/${project.id}/config`);
  await expect(card.getByTestId('current-time-zone')).toHaveText(zone);
  await snap(page, '71-time-zone-and-annotations-390');
});
