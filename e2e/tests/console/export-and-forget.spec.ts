import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { createProject, createVerifiedAccount, signInAs } from '../../support/api.ts';
import { snap } from '../../support/screenshots.ts';

/** Page views sent as the SDK sends them: a text/plain batch from a whitelisted Origin. */
async function sendPageViews(apiKey: string, userIds: string[]): Promise<void> {
  const response = await fetch(`${process.env.POLYFLOW_URL}/api/v1/events`, {
    method: 'POST',
    // A browser's User-Agent: Node's own is on the bot list, whose events are dropped.
    headers: {
      'Content-Type': 'text/plain',
      Origin: 'http://localhost',
      'User-Agent':
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
    },
    body: JSON.stringify({
      apiKey,
      sdkVersion: 'e2e',
      events: userIds.map((userId, index) => ({
        id: randomUUID().replaceAll('-', ''),
        type: 'page_view',
        ts: Date.now() - index * 1000,
        userId,
        sessionId: `session-${userId}`,
        path: '/swap',
      })),
    }),
  });
  expect(response.status).toBe(200);
}

test('the SDK screen exports the raw events of a range and forgets a user after a confirmation', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const account = await createVerifiedAccount('export');
  const project = await createProject(account, 'Export dapp', ['localhost']);
  await sendPageViews(project.apiKey ?? '', ['user-a', 'user-a', 'user-b']);
  // The loader moves acknowledged events into the store within a few seconds.
  const today = new Date().toISOString().slice(0, 10);
  const storedEvents = async () => {
    const response = await fetch(
      `${process.env.POLYFLOW_URL}/api/v1/projects/${project.id}/export/events?from=${today}&to=2100-01-01`,
      { headers: { Authorization: `Bearer ${account.token}` } },
    );
    return response.ok ? (await response.text()).split('\n').filter(Boolean).length : -1;
  };
  await expect.poll(storedEvents, { timeout: 30_000, intervals: [250] }).toBe(3);

  await page.setViewportSize({ width: 1440, height: 900 });
  // Signed in without the form (logging in has journeys of its own), straight to the SDK screen.
  await signInAs(page, account);
  await page.goto(`/console/${project.id}/config`);

  const exportCard = page.locator('section', {
    has: page.getByRole('heading', { name: 'Export raw events' }),
  });
  await exportCard.getByRole('radio', { name: /CSV/ }).check();
  const download = page.waitForEvent('download');
  await exportCard.getByRole('button', { name: 'Export events' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^polyflow-events-.*\.csv$/);
  const text = readFileSync((await file.path()) as string, 'utf8');
  expect(text.startsWith('project_id,id,type,ts,')).toBe(true);
  await expect(exportCard.getByRole('status')).toContainText('3 events');
  await snap(page, '44-export-1440');

  const forgetCard = page.locator('section', {
    has: page.getByRole('heading', { name: 'Forget a wallet or user' }),
  });
  await forgetCard.getByRole('radio', { name: 'User', exact: true }).check();
  await forgetCard.getByLabel('User id').fill('user-a');
  await forgetCard.getByRole('button', { name: 'Forget…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Forget this user?' });
  await expect(confirm).toContainText('Every event of Export dapp with the user id user-a is deleted');
  await snap(page, '45-forget-confirm-1440');
  await confirm.getByRole('button', { name: 'Delete their events' }).click();
  await expect(forgetCard.getByRole('status')).toHaveText('Deleted 2 events of user user-a.');

  // The export now holds the other user's event alone.
  await page.setViewportSize({ width: 390, height: 844 });
  await exportCard.getByRole('button', { name: 'Export events' }).click();
  await expect(exportCard.getByRole('status')).toContainText('1 event,');
  await snap(page, '46-export-and-forget-390');
});
