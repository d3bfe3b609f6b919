import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { type Account, createProject, createVerifiedAccount, signInAs } from '../../support/api.ts';
import { snap } from '../../support/screenshots.ts';

/** Opens the project's SDK screen signed in without the form (logging in has journeys of its own). */
async function logInAndOpen(page: import('@playwright/test').Page, account: Account, projectId: string) {
  await signInAs(page, account);
  await page.goto(`/console/${projectId}/config`);
}

/** One page view, sent as the SDK sends it: a text/plain batch from the dapp's Origin. */
async function sendPageView(apiKey: string, origin: string): Promise<number> {
  const response = await fetch(`${process.env.POLYFLOW_URL}/api/v1/events`, {
    method: 'POST',
    // A browser's User-Agent, as a dapp page sends: Node's own ("node") is on the bot list, whose events are dropped.
    headers: {
      'Content-Type': 'text/plain',
      Origin: origin,
      'User-Agent':
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
    },
    body: JSON.stringify({
      apiKey,
      sdkVersion: 'e2e',
      events: [
        {
          id: randomUUID().replaceAll('-', ''),
          type: 'page_view',
          ts: Date.now(),
          userId: 'user-e2e',
          sessionId: 'session-e2e',
          path: '/swap',
        },
      ],
    }),
  });
  return response.status;
}

test('Start test reports the events that arrive from a whitelisted domain', async ({ page }) => {
  const account = await createVerifiedAccount('integration');
  const project = await createProject(account, 'Integration dapp', ['app.example.com']);
  await logInAndOpen(page, account, project.id);

  await page.getByRole('button', { name: 'Start test' }).click();
  await expect(page.getByText(/Waiting for events/)).toBeVisible();
  expect(await sendPageView(project.apiKey ?? '', 'https://evil.example.org')).toBe(403);
  expect(await sendPageView(project.apiKey ?? '', 'https://app.example.com')).toBe(200);
  await expect(page.getByText(/Received 1 event from app\.example\.com/)).toBeVisible({ timeout: 15_000 });
  await snap(page, '19-sdk-integration-received');
});

test('Start test says what is missing when the project has no domain', async ({ page }) => {
  const account = await createVerifiedAccount('nodomain');
  const project = await createProject(account, 'No domain dapp');
  await logInAndOpen(page, account, project.id);
  await page.getByRole('button', { name: 'Start test' }).click();
  await expect(page.getByText(/No whitelisted domain/)).toBeVisible();
});

test('the install card gives the script tag to put before the dapp’s own scripts', async ({ page }) => {
  const account = await createVerifiedAccount('install');
  const project = await createProject(account, 'Install dapp', ['app.example.com']);
  await logInAndOpen(page, account, project.id);
  const card = page.getByRole('region', { name: 'Install the SDK' });
  await expect(card).toContainText(
    `<script src="${process.env.POLYFLOW_URL}/sdk.js" data-api-key="${project.apiKey}"></script>`,
  );
  await expect(card).toContainText('before your own scripts (no async)');
  await card.scrollIntoViewIfNeeded();
  await snap(page, '20-sdk-install-card-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await card.scrollIntoViewIfNeeded();
  await snap(page, '20-sdk-install-card-390');
});
