import { expect, test } from '@playwright/test';
import { type DemoDapp, startDemoDapp } from '../../../examples/demo-dapp/src/demo-server.mjs';
import { startChain, type TestChain } from '../../support/chain.ts';
import { snap } from '../../support/screenshots.ts';
import { approveNext, clickAndWaitForLog } from './demo-page.ts';
import { integrationStatus, waitForStoredCount } from './integration.ts';
import { attachLegacySdk } from './legacy-sdk.ts';
import {
  createProject,
  type OwnedProject,
  type PolyflowInstance,
  removeInstanceData,
  startPolyflow,
} from './polyflow-instance.ts';
import { eventsOf, readStoredEvents } from './stored-events.ts';

// Who may send: only pages on the project's whitelist. And the SDK published in 2023 keeps working.
// Both projects live on one server of this file's own, read back from DuckDB once it has stopped.
test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 900 } });

let chain: TestChain;
let polyflow: PolyflowInstance;
let demo: DemoDapp;
let localhostOnly: OwnedProject;
let legacy: OwnedProject;

test.beforeAll(async () => {
  [chain, polyflow] = await Promise.all([startChain(), startPolyflow()]);
  [localhostOnly, legacy] = await Promise.all([
    createProject(polyflow, ['localhost']),
    createProject(polyflow, ['localhost']),
  ]);
  // No key in the server settings: each test names its project with `?key=`, as a newcomer may.
  demo = await startDemoDapp({ polyflowUrl: polyflow.url, port: 0, rpcUrl: chain.rpcUrl });
});

test.afterAll(async () => {
  await demo?.close();
  await polyflow?.stop();
  await chain?.stop();
  if (polyflow) removeInstanceData(polyflow);
});

test('from an origin not on the whitelist nothing is stored, and the page keeps working', async ({
  page,
}) => {
  const answers: number[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/api/v1/events')) answers.push(response.status());
  });
  // Same server, same page: only the host differs. 127.0.0.1 is not on the whitelist, localhost is.
  await page.goto(`http://127.0.0.1:${demo.port}/?key=${localhostOnly.apiKey}&autoApprove=1`);
  await expect(page.locator('#status-sdk')).toHaveText(/^loaded from/);
  expect((await clickAndWaitForLog(page, 'Connect', 'connect')).outcome).toBe('ok');
  const sent = await clickAndWaitForLog(page, 'Send ETH', 'send-eth', { stage: 'mined' });
  expect(sent.outcome).toBe('ok');
  expect((await chain.receipt(sent.data.hash as `0x${string}`)).status).toBe('success');
  const reverted = await clickAndWaitForLog(page, 'Call a contract (reverts)', 'contract-revert', {
    stage: 'mined',
  });
  expect(reverted.data.status).toBe('0x0');
  expect((await clickAndWaitForLog(page, 'Sign a message', 'sign-message')).outcome).toBe('ok');
  await page.getByRole('button', { name: 'Throw an error' }).click();
  await snap(page, 'sdk-origin-01-not-whitelisted-page-still-works');
  await page.goto('about:blank');
  await expect.poll(() => answers.length, { message: 'the SDK tried to send' }).toBeGreaterThan(0);
  expect(new Set(answers)).toEqual(new Set([403]));

  const status = await integrationStatus(polyflow, localhostOnly);
  expect(status.eventsSince).toBe(0);
  expect(status.lastEvent).toBeNull();

  // The control: the same page from localhost is stored, so the check above could have failed.
  await page.goto(`http://localhost:${demo.port}/?key=${localhostOnly.apiKey}&autoApprove=1`);
  await expect(page.locator('#status-sdk')).toHaveText(/^loaded from/);
  await clickAndWaitForLog(page, 'Connect', 'connect');
  await page.goto('about:blank');
  await waitForStoredCount(polyflow, localhostOnly, 3);
  const after = await integrationStatus(polyflow, localhostOnly);
  expect(after.origins.map((origin) => origin.origin)).toEqual([expect.stringContaining('localhost')]);
});

test('the published @polyflow/sdk@1.0.25, in the same page with the same key, gets its events stored', async ({
  page,
}) => {
  const legacyAnswers: number[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/api/graphql')) legacyAnswers.push(response.status());
  });
  // `via=window`: the 2023 SDK only sees calls made through `window.ethereum`.
  await page.goto(`${demo.url}/?key=${legacy.apiKey}&via=window`);
  await expect(page.locator('#status-sdk')).toHaveText(/^loaded from/);
  await attachLegacySdk(page, legacy.apiKey, `${polyflow.url}/api/graphql`);

  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await approveNext(page);
  const sent = await clickAndWaitForLog(page, 'Send ETH', 'send-eth', { approve: true, stage: 'mined' });
  const reverted = await clickAndWaitForLog(page, 'Call a contract (reverts)', 'contract-revert', {
    approve: true,
    stage: 'mined',
  });
  await page.getByRole('button', { name: 'Throw an error' }).click();
  await snap(page, 'sdk-legacy-01-both-sdks-in-one-page');
  // The 2023 SDK polls receipts every 5 s before it reports a status.
  await expect
    .poll(() => legacyAnswers.length, { message: 'the 2023 SDK sent its mutations', timeout: 15_000 })
    .toBeGreaterThanOrEqual(7);
  await page.waitForTimeout(6000);
  expect(legacyAnswers.every((status) => status === 200)).toBe(true);
  await page.goto('about:blank');
  await waitForStoredCount(polyflow, legacy, 10);
  await polyflow.stop();

  const stored = await readStoredEvents(polyflow.dataDir, legacy.id);
  const isLegacy = (event: Record<string, unknown>) => JSON.stringify(event).includes('1.0.25');
  const fromLegacy = stored.filter(isLegacy);
  const fromNew = stored.filter((event) => !isLegacy(event));
  expect(fromLegacy.length, 'events of the 2023 SDK').toBeGreaterThan(0);
  expect(fromNew.length, 'events of the current SDK, same page and key').toBeGreaterThan(0);

  const account = (demo.accounts[0] as string).toLowerCase();
  expect(fromLegacy.some((event) => JSON.stringify(event).includes(account))).toBe(true);
  for (const hash of [sent.data.hash, reverted.data.hash] as string[]) {
    expect(
      fromLegacy.some((event) => JSON.stringify(event).includes(hash)),
      `the 2023 SDK's transaction ${hash}`,
    ).toBe(true);
  }
  expect(
    eventsOf(fromNew, 'tx', (tx) => tx.hash === reverted.data.hash && tx.stage === 'reverted'),
  ).toHaveLength(1);
});
