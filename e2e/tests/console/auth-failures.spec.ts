import { expect, test } from '@playwright/test';
import { createVerifiedAccount, PolyflowApi, uniqueEmail } from '../../support/api.ts';
import { tokenFromLink, waitForMail } from '../../support/mail.ts';
import { snap } from '../../support/screenshots.ts';

test('a wrong password shows the server message and clears the password field', async ({ page }) => {
  const account = await createVerifiedAccount('wrongpw');
  await page.goto('/');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill('not the right one');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('alert')).toContainText(/wrong email or password/i);
  await expect(page.getByLabel('Password')).toHaveValue('');
  await expect(page).toHaveURL(/\/$/);
  await snap(page, '11-login-wrong-password');
});

test('logging in before verifying leads to the verify screen, which can resend the email', async ({
  page,
}) => {
  const email = uniqueEmail('unverified');
  await new PolyflowApi().expectOk('POST', '/register', { email, password: 'unverified secret' });
  await waitForMail(email, /verify/i);

  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('unverified secret');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/verify\?email=/);
  await expect(page.getByText(`Check ${email} for a verification link or code.`)).toBeVisible();
  await page.getByRole('button', { name: 'Resend verification email' }).click();
  await expect.poll(async () => (await waitForMail(email, /verify/i)).raw.length).toBeGreaterThan(0);
});

test('a forgotten password is reset through the emailed link', async ({ page }) => {
  const account = await createVerifiedAccount('reset');
  await page.goto('/');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password/);
  // The URL changes before the lazily loaded screen replaces the log-in form, whose Email field has the same
  // label: fill the field once the new screen is there.
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await snap(page, '12-forgot-password-sent');

  const mail = await waitForMail(account.email, /reset/i);
  await page.goto(`/forgot-password?token=${tokenFromLink(mail, '/forgot-password')}`);
  await page.getByLabel(/new password/i).fill('a brand new secret');
  await snap(page, '13-reset-password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText(/password (has been|was) (changed|reset)/i)).toBeVisible();
  await page.getByRole('link', { name: 'Log in' }).click();

  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('alert')).toBeVisible();

  await page.getByLabel('Password').fill('a brand new secret');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('dialog', { name: 'My Projects' })).toBeVisible();
});
