import { expect, test } from '@playwright/test';
import { uniqueEmail } from '../../support/api.ts';
import { shortCodeFrom, waitForMail } from '../../support/mail.ts';
import { snap } from '../../support/screenshots.ts';

for (const viewport of [
  { name: 'desktop', width: 1280, height: 860 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`a newcomer verifies by typing the short code from the email (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const email = uniqueEmail('shortcode');
    const password = 'a long enough secret';

    await page.goto('/?signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByRole('heading', { name: 'You must verify your email' })).toBeVisible();

    // The mail went through the real SMTP sink; a wrong code first, then the right one.
    const code = shortCodeFrom(await waitForMail(email, /verify/i));
    const field = page.getByLabel('Verification code');
    const wrong = code.startsWith('ZZZZ') ? 'YYYY-YYYY' : 'ZZZZ-ZZZZ';
    let alerted: string | null = null;
    page.once('dialog', (dialog) => {
      alerted = dialog.message();
      void dialog.accept();
    });
    await field.fill(wrong);
    await page.getByRole('button', { name: 'Confirm' }).click();
    // The server's message inline, as the login form shows its failures; no browser alert.
    await expect(page.getByRole('alert')).toContainText(/code/i);
    expect(alerted).toBeNull();

    await field.fill(code.toLowerCase());
    await expect(page.getByText('The 8-character code from the email, like ABCD-EFGH.')).toBeVisible();
    await snap(page, `verify-short-code-${viewport.name}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Succesfully verified email.')).toBeVisible();

    await page.getByRole('link', { name: 'Log in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByRole('dialog', { name: 'My Projects' })).toBeVisible();
  });
}
