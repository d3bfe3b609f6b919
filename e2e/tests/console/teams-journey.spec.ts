import { expect, type Page, test } from '@playwright/test';
import {
  createVerifiedAccount,
  PolyflowApi,
  type Project,
  signInAs,
  uniqueEmail,
} from '../../support/api.ts';
import { tokenFromLink, waitForMail } from '../../support/mail.ts';
import { snap } from '../../support/screenshots.ts';

test.use({ viewport: { width: 1440, height: 900 } });

/** Where the screens of this journey are also saved for review (outside the repository, issue 26). */
const SCREENS_DIR = process.env.TEAMS_SCREENS_DIR;

async function shoot(page: Page, name: string): Promise<void> {
  await snap(page, `teams-${name}`);
  if (SCREENS_DIR) await page.screenshot({ path: `${SCREENS_DIR}/${name}.png`, fullPage: true });
}

test('an owner invites a colleague without an account, promotes them, sees their change in the audit log, and removes them', async ({
  browser,
}) => {
  // Two people, three argon2 hashes and four emails on a shared 2-core machine.
  test.setTimeout(240_000);
  const owner = await createVerifiedAccount('teams-owner');
  const ownerApi = new PolyflowApi(owner.token);
  const project = await ownerApi.expectOk<Project>('POST', '/projects', { name: 'Team dapp' });
  const colleagueEmail = uniqueEmail('teams-colleague');
  const colleaguePassword = 'a colleague secret';

  const ownerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const ownerPage = await ownerContext.newPage();
  // The owner is signed in without the form (the colleague logs in through it below).
  await signInAs(ownerPage, owner);
  await ownerPage.goto(`/console/${project.id}/members`);
  await expect(ownerPage.getByRole('heading', { name: 'Members' })).toBeVisible();

  // The owner invites the colleague, who has no account yet, as a viewer.
  await ownerPage.getByLabel('Email address').fill(colleagueEmail);
  await ownerPage.getByLabel('Role', { exact: true }).selectOption('viewer');
  await ownerPage.getByRole('button', { name: 'Send invitation' }).click();
  await expect(ownerPage.getByText(`Invitation sent to ${colleagueEmail}`)).toBeVisible();
  const pending = ownerPage.getByRole('list', { name: 'Pending invitations' });
  await expect(pending.getByText(colleagueEmail)).toBeVisible();
  await shoot(ownerPage, 'members-pending-desktop');
  await ownerPage.setViewportSize({ width: 390, height: 844 });
  await shoot(ownerPage, 'members-pending-phone');
  await ownerPage.setViewportSize({ width: 1440, height: 900 });

  // The colleague opens the emailed link, signs up with that address and verifies it.
  const invitation = await waitForMail(colleagueEmail, /invited to Team dapp/);
  const colleagueContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await colleagueContext.newPage();
  await page.goto(`/invite?token=${tokenFromLink(invitation, '/invite')}`);
  await expect(page.getByRole('heading', { name: 'Join a project' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign up' }).click();
  await page.getByLabel('Email').fill(colleagueEmail);
  await page.getByLabel('Password').fill(colleaguePassword);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/verify\?email=/);
  const verification = await waitForMail(colleagueEmail, /verify/i);
  await page.goto(`/verify?token=${tokenFromLink(verification, '/verify')}`);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Succesfully verified email.')).toBeVisible();
  await page.getByRole('link', { name: 'Log in' }).click();
  await page.getByLabel('Email').fill(colleagueEmail);
  await page.getByLabel('Password').fill(colleaguePassword);
  await page.getByRole('button', { name: 'Log In' }).click();

  // Logged in, the kept invitation is accepted: the colleague lands in the project as a viewer.
  await expect(page).toHaveURL(new RegExp(`/console/${project.id}/analytics`));
  await page.goto(`/console/${project.id}/config`);
  await expect(page.getByText('You are a viewer of this project')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add', exact: true })).toBeDisabled();
  const colleagueNav = page.getByRole('navigation', { name: 'Console' });
  await expect(colleagueNav.getByRole('link', { name: 'Members' })).toBeVisible();
  await expect(colleagueNav.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  await shoot(page, 'sdk-viewer-desktop');
  await page.goto(`/console/${project.id}/members`);
  await expect(page.getByRole('button', { name: 'Leave' })).toBeVisible();
  await expect(page.getByLabel('Email address')).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'members-viewer-phone');
  await page.setViewportSize({ width: 1440, height: 900 });

  // The owner makes them an admin.
  await ownerPage.reload();
  const members = ownerPage.getByRole('list', { name: 'Members' });
  await expect(members.getByText(colleagueEmail, { exact: true })).toBeVisible();
  await members.getByLabel(`Role of ${colleagueEmail}`).selectOption('admin');
  await members.getByRole('button', { name: `Save the role of ${colleagueEmail}` }).click();
  await expect(members.getByRole('button', { name: `Save the role of ${colleagueEmail}` })).toHaveCount(0);
  await expect(members.getByLabel(`Role of ${colleagueEmail}`)).toHaveValue('admin');
  await expect(ownerPage.getByRole('list', { name: 'Pending invitations' })).toHaveCount(0);
  await shoot(ownerPage, 'members-desktop');
  await ownerPage.setViewportSize({ width: 390, height: 844 });
  await shoot(ownerPage, 'members-phone');
  await ownerPage.setViewportSize({ width: 1440, height: 900 });

  // As an admin the colleague adds a domain.
  await page.goto(`/console/${project.id}/config`);
  await expect(page.getByText('You are a viewer of this project')).toHaveCount(0);
  const domainInput = page.getByPlaceholder('E.g. polyflow.dev or app.polyflow.dev');
  await domainInput.fill('shop.example.com');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('shop.example.com', { exact: true })).toBeVisible();

  // It shows in the owner's audit log, with who did it.
  await ownerPage.goto(`/console/${project.id}/audit-log`);
  const log = ownerPage.getByRole('list', { name: 'Audit log entries' });
  await expect(log.getByRole('listitem').first()).toContainText(
    `${colleagueEmail} Added a domain shop.example.com`,
  );
  await expect(log).toContainText(`${owner.email} Changed the role of ${colleagueEmail}`);
  await expect(log).toContainText(`${colleagueEmail} Joined the project`);
  await expect(log).toContainText(`${owner.email} Invited ${colleagueEmail}`);
  const download = ownerPage.waitForEvent('download');
  await ownerPage.getByRole('button', { name: 'Download CSV' }).click();
  expect((await download).suggestedFilename()).toBe(`polyflow-audit-log-${project.id}.csv`);
  await shoot(ownerPage, 'audit-log-desktop');
  await ownerPage.setViewportSize({ width: 390, height: 844 });
  await shoot(ownerPage, 'audit-log-phone');
  await ownerPage.setViewportSize({ width: 1440, height: 900 });

  // The owner removes them; their next request is refused as for a project that does not exist.
  await ownerPage.goto(`/console/${project.id}/members`);
  await ownerPage.getByRole('button', { name: `Remove ${colleagueEmail}` }).click();
  await ownerPage
    .getByRole('dialog', { name: 'Remove this member?' })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(
    ownerPage.getByRole('list', { name: 'Members' }).getByText(colleagueEmail, { exact: true }),
  ).toHaveCount(0);

  const colleagueToken = await page.evaluate(() => JSON.parse(localStorage.getItem('PF_USER') ?? '{}').token);
  const refused = await new PolyflowApi(colleagueToken).call('PATCH', `/projects/${project.id}/domains/add`, {
    domain: 'other.example.com',
  });
  expect(refused.status).toBe(404);
  // The console, reloaded, no longer finds the project among theirs.
  await page.reload();
  await expect(page.getByText('Project not found')).toBeVisible();

  await colleagueContext.close();
  await ownerContext.close();
});
