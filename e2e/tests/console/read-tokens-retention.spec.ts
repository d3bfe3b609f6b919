import { expect, test } from '@playwright/test';
import { createProject, createVerifiedAccount, signInAs } from '../../support/api.ts';
import { snap } from '../../support/screenshots.ts';

test('the SDK screen creates a read token that exports events, sets a retention and revokes the token', async ({
  page,
  request,
}) => {
  // A long journey (two dialogs, a reload, two viewports) on a shared, busy machine.
  test.setTimeout(180_000);
  const account = await createVerifiedAccount('read-token');
  const project = await createProject(account, 'Token dapp', ['localhost']);
  // Signed in without the form (logging in has journeys of its own), straight to the SDK screen.
  await signInAs(page, account);
  await page.goto(`/console/${project.id}/config`);

  const tokens = page.locator('section', { has: page.getByRole('heading', { name: 'Read tokens' }) });
  await expect(tokens.getByText('No read tokens yet.')).toBeVisible();
  await tokens.getByLabel('Token name').fill('Metabase');
  await tokens.getByRole('button', { name: 'Create token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy your read token' });
  await expect(dialog.getByText('This is the only time the token is shown.', { exact: false })).toBeVisible();
  const token = await dialog.getByLabel('Read token Metabase').inputValue();
  expect(token).toMatch(/^pfr_[0-9A-Za-z]{40}$/);
  await snap(page, '40-read-token-created');

  // The token works from a script: the export answers, with the CSV header.
  const exported = await request.get(
    `/api/v1/projects/${project.id}/export/events?from=2020-01-01&to=2100-01-01&format=csv`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  expect(exported.status()).toBe(200);
  expect((await exported.text()).startsWith('project_id,id,type,ts,')).toBe(true);

  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(tokens.getByRole('list', { name: 'Read tokens' }).getByText('Metabase')).toBeVisible();

  const retention = page.locator('section', { has: page.getByRole('heading', { name: 'Data retention' }) });
  await expect(retention.getByText('Events are kept forever.')).toBeVisible();
  await retention.getByLabel('Keep events for (days)').fill('30');
  await retention.getByRole('button', { name: 'Save' }).click();
  await expect(retention.getByText('Events older than 30 days are deleted every hour.')).toBeVisible();
  await page.reload();
  await expect(retention.getByText('Events older than 30 days are deleted every hour.')).toBeVisible();
  await expect(tokens.getByText('Metabase')).toBeVisible();
  await snap(page, '41-sdk-screen-1280');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(tokens.getByRole('button', { name: 'Revoke Metabase' })).toBeVisible();
  await snap(page, '42-sdk-screen-390');

  await tokens.getByRole('button', { name: 'Revoke Metabase' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke this read token?' });
  await snap(page, '43-read-token-revoke-390');
  await confirm.getByRole('button', { name: 'Revoke token' }).click();
  await expect(tokens.getByText('No read tokens yet.')).toBeVisible();
  const refused = await request.get(
    `/api/v1/projects/${project.id}/export/events?from=2020-01-01&to=2100-01-01`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  expect(refused.status()).toBe(401);
});
