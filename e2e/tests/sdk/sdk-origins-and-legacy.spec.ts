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
  // Side by side; afterAll stops whichever started, whether or not the other did.
  const [chainStart, polyflowStart] = await Promise.allSettled([
    startChain().then((value) => (chain = value)),
    startPolyflow().then((value) => (polyflow = value)),
  ]);
  for (const result of [chainStart, polyflowStart]) if (result.status === 'rejected') throw result.reason;
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
  const attempts: string[] = [];
  let sentBody = '';
  page.on('request', (request) => {
    if (request.url().endsWith('/api/v1/events')) sentBody = request.postData() ?? '';
  });
  page.on('response', (response) => {
    if (response.url().endsWith('/api/v1/events')) attempts.push(`response ${response.status()}`);
  });
  // Refused without CORS headers, the browser reports a network failure to the page (and to Playwright).
  page.on('requestfailed', (request) => {
    if (request.url().endsWith('/api/v1/events')) attempts.push(`failed ${request.failure()?.errorText}`);
  });
  // Same server, same page: only the host differs. 127.0.0.1 is not on the whitelist, localhost is.
  const pageOrigin = `http://127.0.0.1:${demo.port}`;
  await page.goto(`${pageOrigin}/?key=${localhostOnly.apiKey}&autoApprove=1`);
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
  // The SDK tries (and retries) while the page goes on working.
  await expect
    .poll(() => attempts.length, { message: 'the SDK tried to send', timeout: 15_000 })
    .toBeGreaterThan(1);
  expect((await clickAndWaitForLog(page, 'Read the stored value', 'read-value')).outcome).toBe('ok');
  await snap(page, 'sdk-origin-01-not-whitelisted-page-still-works');
  for (const attempt of attempts) expect(attempt).toMatch(/^(response 403|failed net::ERR_FAILED)$/);
  // What the server answered that request: 403, whatever the browser made of it.
  const replay = await fetch(`${polyflow.url}/api/v1/events`, {
    method: 'POST',
    headers: { Origin: pageOrigin, 'Content-Type': 'text/plain;charset=UTF-8' },
    body: sentBody,
  });
  expect(replay.status).toBe(403);
  expect(replay.headers.get('access-control-allow-origin')).toBeNull();
  await page.goto('about:blank');

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
  // Each GraphQL mutation of the 2023 SDK: its operation and the server's answer.
  const legacyAnswers: { operation: string; status: number; errors: unknown }[] = [];
  page.on('response', async (response) => {
    if (!response.url().endsWith('/api/graphql')) return;
    const operation = /mutation (\w+)/.exec(response.request().postData() ?? '')?.[1] ?? '?';
    const body = await response.json().catch(() => ({}));
    legacyAnswers.push({ operation, status: response.status(), errors: body.errors });
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
  // It reports a transaction's outcome once it has polled the receipt (every 5 s).
  const updates = () => legacyAnswers.filter((answer) => answer.operation === 'UpdateTxRequestEventTxStatus');
  await expect
    .poll(() => updates().length, { message: 'the 2023 SDK reported both outcomes', timeout: 20_000 })
    .toBe(2);
  expect(legacyAnswers.map((answer) => answer.operation)).toEqual(
    expect.arrayContaining(['CreateUserLandedEvent', 'CreateWalletConnectedEvent', 'CreateTxRequestEvent']),
  );
  await expect
    .poll(() => legacyAnswers.some((answer) => answer.operation === 'CreateErrorEvent'), { timeout: 10_000 })
    .toBe(true);
  for (const answer of legacyAnswers)
    expect(answer, answer.operation).toMatchObject({ status: 200, errors: undefined });
  await page.goto('about:blank');
  await waitForStoredCount(polyflow, legacy, 10);
  await polyflow.stop();

  const stored = await readStoredEvents(polyflow.dataDir, legacy.id);
  const fromLegacy = stored.filter((event) => event.sdk === 'polyflow-legacy/1.0.25');
  const fromCurrent = stored.filter((event) => event.sdk?.startsWith('polyflow/'));
  expect(fromLegacy.length + fromCurrent.length, 'every event says which SDK sent it').toBe(stored.length);
  for (const event of fromLegacy) expect(event.origin).toBe('localhost');

  const account = (demo.accounts[0] as string).toLowerCase();
  expect(eventsOf(fromLegacy, 'page_view').length).toBeGreaterThan(0);
  expect(eventsOf(fromLegacy, 'wallet_connected').map((event) => event.wallet.address)).toContain(account);
  // Its status update (receipt polled by the 2023 SDK) lands as the final stage of the same hash.
  const legacyStages = (hash: unknown) =>
    eventsOf(fromLegacy, 'tx', (tx) => tx.hash === hash)
      .map((tx) => tx.stage)
      .sort();
  expect(legacyStages(sent.data.hash)).toEqual(['confirmed', 'submitted']);
  expect(legacyStages(reverted.data.hash)).toEqual(['reverted', 'submitted']);
  expect(eventsOf(fromLegacy, 'error').some((event) => event.message?.includes('something broke'))).toBe(
    true,
  );

  // The current SDK, in the same page, recorded the same actions under its own ids.
  expect(
    eventsOf(fromCurrent, 'tx', (tx) => tx.hash === sent.data.hash && tx.stage === 'confirmed'),
  ).toHaveLength(1);
  expect(
    eventsOf(fromCurrent, 'tx', (tx) => tx.hash === reverted.data.hash && tx.stage === 'reverted'),
  ).toHaveLength(1);
});
