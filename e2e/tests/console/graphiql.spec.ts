import { expect, test } from '@playwright/test';
import { createProject, createVerifiedAccount, signInAs } from '../../support/api.ts';
import { snap } from '../../support/screenshots.ts';

test('GraphiQL is for signed-in owners and runs a query against their project', async ({ page }) => {
  // The editor took over 30 s to start on a loaded 2-core machine (GraphiQL 5 with Monaco; ADR 076).
  test.setTimeout(180_000);
  const account = await createVerifiedAccount('graphiql');
  const project = await createProject(account, 'Graph dapp', ['localhost']);

  // Anonymous visitors get the login screen, not the editor.
  await page.goto(`/console/${project.id}/graphiql`);
  await expect(page.getByRole('heading', { name: 'Log In' })).toBeVisible();
  // …with the page asked for, opened after logging in.
  await expect(page).toHaveURL(new RegExp(`/\\?next=%2Fconsole%2F${project.id}%2Fgraphiql$`));

  // Signed in (without the form: logging in has journeys of its own), its only project opens by itself.
  await signInAs(page, account);
  await page.goto('/console/analytics');
  await expect(page).toHaveURL(new RegExp(`/console/${project.id}/analytics`));
  await page.getByRole('link', { name: 'GraphQL API' }).click();
  await expect(page).toHaveURL(new RegExp(`/console/${project.id}/graphiql$`));
  // The screen is a chunk of its own (GraphiQL and its editor): on a loaded machine it showed "Loading…" past
  // the default 10 s before its heading.
  await expect(page.getByRole('heading', { name: 'GraphQL API' })).toBeVisible({ timeout: 60_000 });

  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await expect(page.getByText('totalConnectedWallets').first()).toBeVisible({ timeout: 120_000 });
  await snap(page, '29-graphiql-before');
  // The starter query asks for this project's connected wallets; it runs with the owner's session.
  const answer = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/graphql') &&
      (response.request().postData() ?? '').includes('totalConnectedWallets'),
  );
  await page.getByRole('button', { name: /Execute query/ }).click();
  const response = await answer.catch((error: unknown) => {
    throw new Error(`${String(error)}; console errors: ${problems.join(' | ')}`);
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { data?: { totalConnectedWallets?: unknown[] }; errors?: unknown };
  expect(body.errors).toBeUndefined();
  expect(Array.isArray(body.data?.totalConnectedWallets)).toBe(true);
  await expect(page.getByText('"totalConnectedWallets"')).toBeVisible();
  await snap(page, '30-graphiql-1280');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: /Execute query/ })).toBeVisible();
  await snap(page, '31-graphiql-390');
});
