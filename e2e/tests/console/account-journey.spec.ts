import { expect, test } from '@playwright/test';
import { uniqueEmail } from '../../support/api.ts';
import { countMails, tokenFromLink, waitForMail } from '../../support/mail.ts';
import { snap } from '../../support/screenshots.ts';

test.use({ viewport: { width: 1280, height: 860 } });

test('a newcomer signs up, verifies by email, manages a project, key and domains, and logs out', async ({
  page,
  context,
}) => {
  // The whole account life in one journey (sign-up to log-out, with argon2 hashing and two emails): about a
  // minute on a quiet 2-core machine, so the default 60 s leaves no margin.
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const email = uniqueEmail('journey');
  const password = 'a long enough secret';

  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  await snap(page, '01-login');

  await page.getByRole('link', { name: /Sign up here/ }).click();
  await expect(page).toHaveURL(/\?signup/);
  const signUp = page.getByRole('button', { name: 'Sign Up' });
  await expect(signUp).toBeDisabled();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('short');
  await expect(signUp).toBeDisabled();
  await page.getByLabel('Password').fill(password);
  await snap(page, '02-signup');
  await signUp.click();

  await expect(page).toHaveURL(/\/verify\?email=/);
  await expect(page.getByRole('heading', { name: 'You must verify your email' })).toBeVisible();
  await expect(page.getByText(`Check ${email} for a verification link or code.`)).toBeVisible();
  await snap(page, '03-verify-check-email');

  const mail = await waitForMail(email, /verify/i);
  await page.goto(`/verify?token=${tokenFromLink(mail, '/verify')}`);
  await expect(page.getByText('Please verify your email')).toBeVisible();
  await expect(page.getByLabel('Verification code')).not.toHaveValue('');
  await snap(page, '04-verify-code');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Succesfully verified email.')).toBeVisible();
  await snap(page, '05-verified');
  await page.getByRole('link', { name: 'Log in' }).click();

  await expect(page).toHaveURL(/\/$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();

  const switcher = page.getByRole('dialog', { name: 'My Projects' });
  await expect(switcher).toBeVisible();
  await expect(
    switcher.getByText(
      "You don't have any projects. Create a project by clicking the button below to get started.",
    ),
  ).toBeVisible();
  await snap(page, '06-switcher-empty');
  await switcher.getByRole('button', { name: 'Create a new project' }).click();
  const create = switcher.getByRole('button', { name: 'Create', exact: true });
  await expect(create).toBeDisabled();
  await switcher.getByLabel('Project name').fill('My first dapp');
  await create.click();
  await expect(switcher).toBeHidden();
  await expect(page).toHaveURL(/\/console\/[^/]+\/analytics/);
  await expect(page.getByText('My first dapp').first()).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();
  const projectId = /\/console\/([^/]+)\//.exec(page.url())?.[1];
  expect(projectId).toBeTruthy();
  expect(
    await page.evaluate(() => JSON.parse(localStorage.getItem('PF_CURRENT_PROJECT') ?? 'null')?.name),
  ).toBe('My first dapp');
  // The empty screen as it stays: its cards have loaded (a CSV button is enabled once its card's data is
  // in), so no button is caught between its disabled grey and its colour while the contrast is read.
  await expect(page.getByRole('button', { name: 'Download CSV: Countries' })).toBeEnabled({
    timeout: 30_000,
  });
  await snap(page, '07-analytics-empty');

  await page.getByRole('link', { name: 'SDK', exact: true }).click();
  await expect(page).toHaveURL(/\/config$/);
  await expect(
    page.getByText(
      "No domains whitelisted. Your API key will not work. Please add domains where you'll be using the Polyflow SDK.",
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Revoke' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const keyField = page.getByRole('textbox', { name: 'API key' });
  await expect(keyField).toHaveValue(/^pf_/);
  const firstKey = await keyField.inputValue();

  await page.getByRole('button', { name: 'Copy API key' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstKey);

  await page.getByRole('button', { name: 'Replace' }).click();
  const confirmReplace = page.getByRole('dialog', { name: 'Replace the API key?' });
  await expect(confirmReplace).toContainText('the current one is refused at once');
  await snap(page, '08-confirm-replace-key');
  await confirmReplace.getByRole('button', { name: 'Replace key' }).click();
  await expect(confirmReplace).toBeHidden();
  await expect(keyField).not.toHaveValue(firstKey);
  await expect(keyField).toHaveValue(/^pf_/);

  const domainInput = page.getByPlaceholder('E.g. polyflow.dev or app.polyflow.dev');
  const add = page.getByRole('button', { name: 'Add', exact: true });
  await expect(add).toBeDisabled();
  await domainInput.fill('https://App.Example.com:8443/path');
  await add.click();
  await expect(page.getByText('app.example.com', { exact: true })).toBeVisible();
  await expect(domainInput).toHaveValue('');
  await domainInput.fill('localhost');
  await domainInput.press('Enter');
  await expect(page.getByText('localhost', { exact: true })).toBeVisible();
  await snap(page, '08-config');

  await domainInput.fill('app.example.com');
  await add.click();
  await expect(page.getByRole('dialog', { name: 'Error' })).toBeVisible();
  await snap(page, '09-error-modal');
  await page
    .getByRole('dialog', { name: 'Error' })
    .getByRole('button', { name: 'Close', exact: true })
    .click();

  await page.getByRole('button', { name: /Remove app\.example\.com/ }).click();
  const confirmRemove = page.getByRole('dialog', { name: 'Remove this domain?' });
  await expect(confirmRemove).toContainText('Events from pages on app.example.com are refused');
  await confirmRemove.getByRole('button', { name: 'Remove domain' }).click();
  await expect(page.getByText('app.example.com', { exact: true })).toHaveCount(0);

  await page.getByRole('button', { name: 'Revoke' }).click();
  await page
    .getByRole('dialog', { name: 'Revoke the API key?' })
    .getByRole('button', { name: 'Revoke key' })
    .click();
  await expect(page.getByRole('button', { name: 'Create', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Revoke' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Components' }).click();
  await expect(page.getByText('Coming soon!').first()).toBeVisible();
  await snap(page, '10-components');

  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('PF_USER'))).toBeNull();

  // A deep link without a session: the login, with the page to come back to, and the login opens it.
  await page.goto(`/console/${projectId}/config?from=mail`);
  await expect(page).toHaveURL(new RegExp(`/\\?next=%2Fconsole%2F${projectId}%2Fconfig%3Ffrom%3Dmail$`));
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(new RegExp(`/console/${projectId}/config\\?from=mail$`));
  await expect(page.getByRole('heading', { name: 'SDK', exact: true })).toBeVisible();
  // A return address off this app's console is not followed.
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto(`/?next=${encodeURIComponent('//evil.example/console/x')}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(new RegExp(`/console/${projectId}/analytics`));
  expect(countMails(email)).toBe(1);
});
