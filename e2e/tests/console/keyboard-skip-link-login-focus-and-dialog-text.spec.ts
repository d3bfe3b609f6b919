import { expect, test } from '@playwright/test';
import { createProject, createVerifiedAccount, signInAs } from '../../support/api.ts';
import { snap } from '../../support/screenshots.ts';

// What a keyboard and a screen reader get in Chromium, where happy-dom cannot tell: where focus falls when a
// control under it is disabled, and what Chromium's accessibility tree says a dialog is about.

test('after a refused login, focus is on the emptied password field, described by the message', async ({
  page,
}) => {
  const account = await createVerifiedAccount('login-focus');
  await page.goto('/');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill('not the right one');
  await page.getByLabel('Password').press('Enter');
  await expect(page.getByRole('alert')).toContainText(/wrong email or password/i);
  // Log In is disabled once the password is emptied: focus went with it to the page's body.
  await expect(page.getByLabel('Password')).toBeFocused();
  await expect(page.getByLabel('Password')).toHaveAccessibleDescription(/wrong email or password/i);
  await snap(page, 'keyboard-01-login-refused');
});

test('the first Tab of a console screen skips to its heading, and an error dialog says its message', async ({
  page,
}) => {
  const account = await createVerifiedAccount('skip-link');
  const project = await createProject(account, 'Keyboard dapp', ['localhost']);
  await signInAs(page, account);
  await page.goto(`/console/${project.id}/config`);
  const heading = page.getByRole('heading', { level: 1, name: 'SDK' });
  await expect(heading).toBeVisible();

  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await snap(page, 'keyboard-02-skip-link');
  await page.keyboard.press('Enter');
  await expect(heading).toBeFocused();
  await expect(page).toHaveURL(new RegExp(`/console/${project.id}/config$`));

  // The spec's generic modal for a refused domain: focus lands on its Close button, so the message must be
  // the dialog's description to be read at all.
  const domain = page.getByRole('textbox', { name: 'Domain' });
  await domain.fill('not a domain!');
  await domain.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Error' });
  await expect(dialog).toHaveAccessibleDescription(/Enter a domain such as example\.com/);
  await expect(dialog.getByRole('button', { name: 'Close dialog' })).toBeFocused();
  await snap(page, 'keyboard-03-domain-error-dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(domain).toBeFocused();
});
