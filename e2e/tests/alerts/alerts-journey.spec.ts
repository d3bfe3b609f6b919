import { expect, type Page, test } from '@playwright/test';
import { type DemoDapp, startDemoDapp } from '../../../examples/demo-dapp/src/demo-server.mjs';
import {
  createProject,
  createVerifiedAccount,
  PolyflowApi,
  type Project,
  signInAs,
} from '../../support/api.ts';
import { startChain, type TestChain } from '../../support/chain.ts';
import { tokenFromLink, waitForMail } from '../../support/mail.ts';
import { snap } from '../../support/screenshots.ts';
import { recordSentEvents, waitForSentOutcomes } from '../../support/sdk-batches.ts';
import { approveNext, clickAndWaitForLog } from '../sdk/demo-page.ts';
import { type ReceivedWebhook, startWebhookReceiver, verifySignature } from './webhook-receiver.ts';

// Issue 27's journey: an owner sets up a fail-rate rule with a signed webhook and an email channel in the
// console; transactions revert in the demo dapp on anvil; both notices arrive within 2 minutes carrying the
// figures the console shows. The shared server evaluates rules every 5 s and may reach loopback
// (global-setup.ts).
test.use({ viewport: { width: 1440, height: 900 } });

/** Where this journey's screens are also saved for review (outside the repository). */
const SCREENS_DIR = process.env.ALERTS_SCREENS_DIR;
const TWO_MINUTES = 120_000;

let chain: TestChain | undefined;
let demo: DemoDapp | undefined;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>> | undefined;

test.afterAll(async () => {
  await demo?.close();
  await chain?.stop();
  await receiver?.close();
});

async function shoot(page: Page, name: string): Promise<void> {
  for (const [size, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await snap(page, `alerts-${name}-${size}`);
    if (SCREENS_DIR) await page.screenshot({ path: `${SCREENS_DIR}/${name}-${size}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function waitForWebhook(
  predicate: (notice: { type: string }) => boolean,
  timeoutMs: number,
): Promise<ReceivedWebhook> {
  let found: ReceivedWebhook | undefined;
  await expect
    .poll(
      () => {
        found = receiver?.received.find((request) => predicate(JSON.parse(request.body)));
        return found !== undefined;
      },
      // What the receiver has already stored: cheap to ask often.
      { timeout: timeoutMs, intervals: [100] },
    )
    .toBe(true);
  return found as ReceivedWebhook;
}

test('a tx_fail_rate rule with a webhook and an email channel tells the team within 2 minutes, with the console’s figures', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(300_000);
  // The receiver, the chain and the owner's account do not wait for each other; afterAll stops whichever
  // started.
  const [receiverStart, chainStart, ownerStart] = await Promise.allSettled([
    startWebhookReceiver(),
    startChain(),
    createVerifiedAccount('alerts-owner'),
  ]);
  if (receiverStart.status === 'fulfilled') receiver = receiverStart.value;
  if (chainStart.status === 'fulfilled') chain = chainStart.value;
  if (receiverStart.status === 'rejected') throw receiverStart.reason;
  if (chainStart.status === 'rejected') throw chainStart.reason;
  if (ownerStart.status === 'rejected') throw ownerStart.reason;
  const webhooks = receiverStart.value;
  const owner = ownerStart.value;
  const project: Project = await createProject(owner, 'Alerting dapp', ['localhost']);
  // The demo dapp (its contract deployed) starts while the owner sets the rules up; it is awaited there.
  const demoStarted = startDemoDapp({
    polyflowUrl: process.env.POLYFLOW_URL ?? '',
    apiKey: project.apiKey ?? undefined,
    port: 0,
    rpcUrl: chainStart.value.rpcUrl,
  }).then((value) => (demo = value));

  // Signed in without the form (logging in has journeys of its own): the session its verification gave.
  await signInAs(page, owner);
  await page.goto(`/console/${project.id}/alerts`);
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  await expect(page.getByText('No alert rules yet')).toBeVisible();
  await expect(page.getByText('No channels yet')).toBeVisible();
  await shoot(page, '01-empty');

  // A webhook channel to the receiver: its signing secret is shown this once.
  await page.getByRole('button', { name: 'New channel' }).click();
  const channelForm = page.getByRole('form', { name: 'New channel' });
  await channelForm.getByLabel('Type').selectOption('webhook');
  await channelForm.getByLabel('Name').fill('Ops receiver');
  await channelForm.getByLabel('URL').fill(webhooks.url);
  await channelForm.getByRole('button', { name: 'Add channel' }).click();
  const secretPanel = page.getByRole('region', { name: 'Signing secret of Ops receiver' });
  await expect(secretPanel).toBeVisible();
  const secret = await secretPanel.getByRole('textbox', { name: 'Signing secret' }).inputValue();
  expect(secret.length).toBeGreaterThanOrEqual(32);
  await shoot(page, '02-webhook-secret');
  await secretPanel.getByRole('button', { name: 'I have saved the secret' }).click();

  // An email channel to the owner.
  await page.getByRole('button', { name: 'New channel' }).click();
  await channelForm.getByLabel('Name').fill('Owner by email');
  await channelForm.getByRole('checkbox', { name: owner.email }).check();
  await shoot(page, '03-channel-form-email');
  await channelForm.getByRole('button', { name: 'Add channel' }).click();
  const channelList = page.getByRole('list', { name: 'Channels' });
  await expect(channelList.getByRole('listitem')).toHaveCount(2);

  // The rule: more than 50% of at least 4 transactions failing over 5 minutes, to both channels. At least
  // 4, the journey's count: with 3 the rule could fire (66.7%) on a batch holding the good transaction and
  // two reverts before the SDK's next batch brought the third (seen on a loaded machine).
  await page.getByRole('button', { name: 'New rule' }).click();
  const ruleForm = page.getByRole('form', { name: 'New alert rule' });
  await ruleForm.getByLabel('Name').fill('Checkout failing');
  await expect(ruleForm.getByLabel('When')).toHaveValue('tx_fail_rate');
  await ruleForm.getByLabel('Window (minutes)').fill('5');
  await ruleForm.getByLabel('Fail rate above (%)').fill('50');
  await ruleForm.getByLabel('At least (transactions)').fill('4');
  await ruleForm.getByRole('checkbox', { name: /Ops receiver/ }).check();
  await ruleForm.getByRole('checkbox', { name: /Owner by email/ }).check();
  const preview = page.getByRole('region', { name: 'Preview: the last 7 days' });
  await expect(preview.getByText('This rule would not have fired in the last 7 days.')).toBeVisible();
  await ruleForm.getByLabel('Window (minutes)').fill('2');
  await ruleForm.getByLabel('Window (minutes)').blur();
  await expect(ruleForm.getByText('Window must be a whole number from 5 to 1440')).toBeVisible();
  await shoot(page, '04-rule-form');
  await ruleForm.getByLabel('Window (minutes)').fill('5');
  await ruleForm.getByRole('button', { name: 'Create rule' }).click();
  const rules = page.getByRole('list', { name: 'Alert rules' });
  await expect(rules.getByRole('listitem')).toHaveCount(1);
  await expect(rules.getByText('OK', { exact: true })).toBeVisible();

  // In the demo dapp: one transaction goes through, three revert on chain.
  const dappUrl = (await demoStarted).url;
  const dapp = await context.newPage();
  const sent = recordSentEvents(dapp);
  await dapp.goto(dappUrl);
  await expect(dapp.locator('#status-sdk')).toHaveText(/^loaded from/);
  await dapp.getByRole('button', { name: 'Connect', exact: true }).click();
  await approveNext(dapp);
  const ok = await clickAndWaitForLog(dapp, 'Call a contract', 'contract-ok', {
    approve: true,
    stage: 'mined',
  });
  const mined = [ok.data.hash];
  for (let i = 0; i < 3; i += 1) {
    const reverted = await clickAndWaitForLog(dapp, 'Call a contract (reverts)', 'contract-revert', {
      approve: true,
      stage: 'mined',
    });
    expect(reverted.outcome).toBe('error');
    mined.push(reverted.data.hash);
  }
  const revertedAt = Date.now();
  // A person reads the result before closing the tab; meanwhile the SDK, on its own back-off, reads the
  // receipts. The dapp's log says mined when the dapp's own wait ends, which can be before the SDK has read
  // the receipt: leaving then lost the last revert's outcome on CI's loaded machine (2 of 4 failed, 50%, not
  // above the rule's 50%, so no notice ever). So the page stays until the SDK has sent an outcome for each
  // of the four hashes, calling its documented `flush()` meanwhile as a dapp may (packages/sdk/README.md).
  // The two minutes are counted from the last revert all the same. Leaving then sends whatever else the SDK
  // holds, as a visitor closing the tab would.
  await waitForSentOutcomes(dapp, sent, mined, 30_000);
  await dapp.goto('about:blank');

  // The webhook: signed with the secret shown once, the figures of the transactions just made.
  const triggered = await waitForWebhook((notice) => notice.type === 'alert.triggered', TWO_MINUTES);
  const webhookSeconds = (triggered.receivedAt - revertedAt) / 1000;
  expect(webhookSeconds).toBeLessThan(120);
  expect(triggered.headers['content-type']).toMatch(/^application\/json/);
  expect(triggered.headers['polyflow-delivery']).toMatch(/^[0-9a-f-]{36}$/);
  const signature = triggered.headers['polyflow-signature'];
  expect(verifySignature(typeof signature === 'string' ? signature : undefined, triggered.body, secret)).toBe(
    true,
  );
  expect(
    verifySignature(typeof signature === 'string' ? signature : undefined, triggered.body, `${secret}x`),
  ).toBe(false);
  const notice = JSON.parse(triggered.body);
  expect(notice).toMatchObject({
    id: triggered.headers['polyflow-delivery'],
    type: 'alert.triggered',
    project: { id: project.id, name: 'Alerting dapp' },
    rule: { name: 'Checkout failing', kind: 'tx_fail_rate' },
    subject: { kind: 'project', id: project.id },
    figures: { failRatePercent: 75, failed: 3, attempted: 4, windowMinutes: 5 },
  });
  expect(notice.url).toContain(`/console/${project.id}/`);

  // The email, through the real SMTP sink, with the same figures.
  const mail = await waitForMail(
    owner.email,
    /Triggered: Checkout failing/,
    TWO_MINUTES - (Date.now() - revertedAt),
  );
  expect(mail.raw).toContain('Fail rate (%): 75');
  expect(mail.raw).toContain('Failed: 3');
  const mailSeconds = (Date.now() - revertedAt) / 1000;
  console.log(
    `alerts journey: webhook after ${webhookSeconds.toFixed(1)} s, email by ${mailSeconds.toFixed(1)} s`,
  );

  // The console shows the same figures: Analytics' fail rate, and the rule's firing.
  await page.goto(`/console/${project.id}/analytics`);
  const failRateTile = page
    .locator('dt', { hasText: /^Transaction Fail Rate$/ })
    .locator('xpath=following-sibling::dd[1]');
  await expect(failRateTile).toContainText('75%');
  await expect(failRateTile).toContainText('3 of 4 sent');

  await page.goto(`/console/${project.id}/alerts`);
  await expect(rules.getByText('Firing', { exact: true })).toBeVisible();
  await rules.getByRole('button', { name: 'Firings of Checkout failing' }).click();
  const firings = page.getByRole('list', { name: 'Firings of Checkout failing' });
  await expect(firings.getByText('Triggered')).toBeVisible();
  await expect(firings).toContainText('Fail rate75%');
  await expect(firings).toContainText('Failed3');

  // "Send test" reaches the receiver too, and each channel's log shows the deliveries.
  await channelList.getByRole('button', { name: 'Send a test to Ops receiver' }).click();
  const testNotice = await waitForWebhook((sent) => sent.type === 'test', 30_000);
  expect(JSON.parse(testNotice.body)).toMatchObject({
    type: 'test',
    rule: null,
    project: { id: project.id },
  });
  const log = page.getByRole('table', { name: 'Delivery log of Ops receiver' });
  await expect(log.getByRole('row').filter({ hasText: 'Triggered' })).toContainText('Delivered');
  await expect(log.getByRole('row').filter({ hasText: 'Test' }).first()).toContainText('200', {
    timeout: 15_000,
  });
  await channelList.getByRole('button', { name: 'Delivery log of Owner by email' }).click();
  await expect(page.getByRole('table', { name: 'Delivery log of Owner by email' })).toContainText(
    'Triggered',
  );
  await shoot(page, '05-firing-and-deliveries');

  // Editing the rule replays it over the last 7 days: the failures just made are in the preview.
  await rules.getByRole('button', { name: 'Edit Checkout failing' }).click();
  const edit = page.getByRole('form', { name: 'Edit the rule Checkout failing' });
  await expect(edit.getByLabel('When')).toBeDisabled();
  await expect(preview).toContainText('This rule would have fired 1 time in the last 7 days.');
  // The replay steps through the week (with at least 4 transactions, it meets the condition at the fourth).
  await expect(preview).toContainText(/Fail rate(66\.7|75)%/);
  await shoot(page, '06-edit-with-preview');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // Reports: the owner turns on the weekly report.
  const reports = page.getByRole('list', { name: 'Report subscriptions' });
  await reports.getByRole('checkbox', { name: 'Weekly report' }).check();
  await expect(reports.getByRole('checkbox', { name: 'Weekly report' })).toBeChecked();
  await page.reload();
  await expect(
    page.getByRole('list', { name: 'Report subscriptions' }).getByRole('checkbox', { name: 'Weekly report' }),
  ).toBeChecked();

  // A viewer sees the rules, firings, channels and logs, changes none of them, and chooses their own reports.
  const viewer = await createVerifiedAccount('alerts-viewer');
  await new PolyflowApi(owner.token).expectOk('POST', `/projects/${project.id}/invitations`, {
    email: viewer.email,
    role: 'viewer',
  });
  const invitation = await waitForMail(viewer.email, /invited to Alerting dapp/);
  await new PolyflowApi(viewer.token).expectOk('POST', '/invitations/accept', {
    token: tokenFromLink(invitation, '/invite'),
  });
  const viewerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const viewerPage = await viewerContext.newPage();
  await signInAs(viewerPage, viewer);
  await viewerPage.goto(`/console/${project.id}/alerts`);
  const viewerRules = viewerPage.getByRole('list', { name: 'Alert rules' });
  await expect(viewerRules.getByText('Checkout failing', { exact: true })).toBeVisible();
  await expect(viewerPage.getByText('(you see the rules and channels; admins change them)')).toBeVisible();
  for (const name of [/New rule/, /New channel/, /^Edit/, /^Pause/, /^Delete/, /Send a test/]) {
    await expect(viewerPage.getByRole('button', { name })).toHaveCount(0);
  }
  await viewerRules.getByRole('button', { name: 'Firings of Checkout failing' }).click();
  await expect(viewerPage.getByRole('list', { name: 'Firings of Checkout failing' })).toContainText(
    'Fail rate75%',
  );
  const viewerReports = viewerPage.getByRole('list', { name: 'Report subscriptions' });
  const ownerRow = viewerReports.getByRole('listitem').filter({ hasText: owner.email });
  await expect(ownerRow).toContainText('Weekly report: On');
  await expect(ownerRow.getByRole('checkbox')).toHaveCount(0);
  await viewerReports.getByRole('checkbox', { name: 'Monthly report' }).check();
  await expect(viewerReports.getByRole('checkbox', { name: 'Monthly report' })).toBeChecked();
  await shoot(viewerPage, '07-viewer');
  await viewerContext.close();
});

test('the Alerts screen says what it could not load, and shows what is still loading', async ({ page }) => {
  const owner = await createVerifiedAccount('alerts-states');
  const project = await createProject(owner, 'Quiet dapp');
  // The rules answer an error; the channels take their time (answered only once photographed).
  await page.route('**/api/v1/projects/*/alert-rules', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({
        errorCode: 'SERVICE_UNHEALTHY',
        message: 'The accounts store is not answering.',
      }),
    }),
  );
  let releaseChannels: () => void = () => {};
  const channelsHeld = new Promise<void>((resolve) => {
    releaseChannels = resolve;
  });
  await page.route('**/api/v1/projects/*/alert-channels', async (route) => {
    await channelsHeld;
    await route.continue();
  });
  await signInAs(page, owner);
  await page.goto(`/console/${project.id}/alerts`);
  await expect(page.getByRole('alert')).toHaveText(
    'Could not load the rules: The accounts store is not answering.',
  );
  await expect(page.getByText('Loading the channels…')).toBeVisible();
  await shoot(page, '08-error-and-loading');
  releaseChannels();
  await expect(page.getByText('No channels yet')).toBeVisible();
});
