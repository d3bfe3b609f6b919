import { expect, test } from '@playwright/test';
import { createProject, createVerifiedAccount, signInAs } from '../../support/api.ts';
import { snap } from '../../support/screenshots.ts';

// The console itself has one colour scheme, but GraphiQL follows the system's: with a dark system setting it
// draws its dark theme, whose texts must read at WCAG AA too (snap() checks every text's contrast with axe).
test('GraphiQL in its dark theme (the system prefers dark) keeps every text readable', async ({ page }) => {
  test.setTimeout(180_000);
  await page.emulateMedia({ colorScheme: 'dark' });
  const account = await createVerifiedAccount('graphiql-dark');
  const project = await createProject(account, 'Dark graph dapp', ['localhost']);
  await signInAs(page, account);
  await page.goto(`/console/${project.id}/graphiql`);
  await expect(page.getByRole('heading', { name: 'GraphQL API' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('totalConnectedWallets').first()).toBeVisible({ timeout: 120_000 });
  // GraphiQL's dark panel, as its stylesheet draws it under a dark system setting.
  await expect(page.locator('.graphiql-container')).toHaveCSS('--color-base', /219, 29%, 18%/);
  await snap(page, 'graphiql-dark-scheme');
});
