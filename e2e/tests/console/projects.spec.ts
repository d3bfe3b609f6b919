import { expect, test } from '@playwright/test';
import { type Account, createProject, createVerifiedAccount, signInAs } from '../../support/api.ts';
import { snap } from '../../support/screenshots.ts';

async function logIn(page: import('@playwright/test').Page, account: Account): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

test('switching projects, the upsell modal and deleting a project', async ({ page }) => {
  const account = await createVerifiedAccount('switcher');
  await createProject(account, 'Alpha dapp', ['localhost']);
  await createProject(account, 'Beta dapp');
  // Signed in without the form (the phone test below logs in through it): with two projects and none
  // opened yet, the console asks which one.
  await signInAs(page, account);
  await page.goto('/console/analytics');

  const switcher = page.getByRole('dialog', { name: 'My Projects' });
  await expect(switcher.getByText('Alpha dapp')).toBeVisible();
  await expect(switcher.getByText('Beta dapp')).toBeVisible();
  await snap(page, '14-switcher-list');
  await switcher
    .getByRole('listitem')
    .filter({ hasText: 'Alpha dapp' })
    .getByRole('button', { name: 'Open' })
    .click();
  await expect(switcher).toBeHidden();
  await expect(page).toHaveURL(/\/analytics$/);

  await page.getByRole('button', { name: /50%/ }).first().click();
  const upsell = page.getByRole('dialog', { name: 'Hello Friend!' });
  await expect(upsell).toBeVisible();
  await expect(upsell.getByRole('button', { name: 'Buy Subscription & Claim discount' })).toBeVisible();
  await snap(page, '15-upsell');
  await page.keyboard.press('Escape');
  await expect(upsell).toBeHidden();

  await page.getByRole('button', { name: /switch project/i }).click();
  await switcher
    .getByRole('listitem')
    .filter({ hasText: 'Beta dapp' })
    .getByRole('button', { name: 'Open' })
    .click();
  await expect(page.getByText('Beta dapp').first()).toBeVisible();

  await page.getByRole('link', { name: 'SDK', exact: true }).click();
  const remove = page.getByRole('button', { name: 'Delete project' });
  await expect(remove).toBeDisabled();
  await page.getByLabel('Type Beta dapp to confirm').fill('Beta dapp');
  await snap(page, '16-danger-zone');
  await remove.click();
  // The only project left opens by itself; the switcher lists it alone.
  await expect(page.getByRole('button', { name: 'Switch project (current: Alpha dapp)' })).toBeVisible();
  await page.getByRole('button', { name: /switch project/i }).click();
  await expect(switcher).toBeVisible();
  await expect(switcher.getByText('Beta dapp')).toHaveCount(0);
  await expect(switcher.getByText('Alpha dapp')).toBeVisible();
});

test('the console stays usable at phone width', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const account = await createVerifiedAccount('phone');
  const project = await createProject(account, 'Phone dapp', ['localhost']);
  await page.goto('/');
  // The sign-in card is on screen (it fades in once its route has loaded) before it is photographed.
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  await snap(page, '17-login-390');
  await logIn(page, account);
  // Its only project opens by itself.
  await expect(page).toHaveURL(new RegExp(`/console/${project.id}/analytics`));
  await page.goto(`/console/${project.id}/config`);
  await expect(page.getByRole('textbox', { name: 'API key' })).toHaveValue(project.apiKey ?? '');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await snap(page, '18-config-390');
});
