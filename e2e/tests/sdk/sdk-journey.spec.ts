import { expect, type Page, test } from '@playwright/test';
import type { DemoDapp } from '../../../examples/demo-dapp/src/demo-server.mjs';
import type { TestChain } from '../../support/chain.ts';
import { snap } from '../../support/screenshots.ts';
import { approveNext, clickAndWaitForLog, type DemoLogEntry, demoLog } from './demo-page.ts';
import { waitForStoredCount } from './integration.ts';
import type { OwnedProject, PolyflowInstance } from './polyflow-instance.ts';
import { startSdkStack, stopSdkStack } from './sdk-stack.ts';
import { eventsOf, readStoredEvents, type StoredEvent } from './stored-events.ts';

// A newcomer's journey, end to end: the demo dapp loads the SDK from a real Polyflow server with the
// one-line snippet, a person uses every button, and what the server stored matches the chain.
test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 900 } });

let chain: TestChain;
let polyflow: PolyflowInstance;
let project: OwnedProject;
let demo: DemoDapp;

test.beforeAll(async () => {
  ({ chain, polyflow, project, demo } = await startSdkStack());
});

test.afterAll(async () => {
  await stopSdkStack({ chain, polyflow, demo });
});

type Hex = `0x${string}`;
const SET_VALUE = '0x55241077';

async function useEveryButton(page: Page) {
  const seen: Record<string, DemoLogEntry> = {};
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await approveNext(page);
  await expect(page.locator('#status-account')).toHaveText(demo.accounts[0] as string);
  seen.sendEth = await clickAndWaitForLog(page, 'Send ETH', 'send-eth', { approve: true, stage: 'mined' });
  seen.contractOk = await clickAndWaitForLog(page, 'Call a contract', 'contract-ok', {
    approve: true,
    stage: 'mined',
  });
  seen.contractRevert = await clickAndWaitForLog(page, 'Call a contract (reverts)', 'contract-revert', {
    approve: true,
    stage: 'mined',
  });
  seen.signMessage = await clickAndWaitForLog(page, 'Sign a message', 'sign-message', { approve: true });
  seen.signTyped = await clickAndWaitForLog(page, 'Sign typed data', 'sign-typed-data', { approve: true });
  seen.rejectedTx = await clickAndWaitForLog(page, 'Send ETH', 'send-eth', { reject: true });
  seen.rejectedSignature = await clickAndWaitForLog(page, 'Sign a message', 'sign-message', { reject: true });
  await page.getByRole('button', { name: 'Throw an error' }).click();
  await page.getByRole('button', { name: 'Unhandled rejection' }).click();
  await page.getByRole('link', { name: 'About' }).click();
  await expect(page.getByRole('heading', { name: 'About this page' })).toBeVisible();
  await page.getByRole('link', { name: 'Actions' }).click();
  await page.getByRole('button', { name: 'Switch chain' }).click();
  await expect(page.locator('[data-wallet="chain"]')).toHaveText(String(demo.chainId + 1));
  await page.getByRole('button', { name: 'Switch chain' }).click();
  await expect(page.locator('[data-wallet="chain"]')).toHaveText(String(demo.chainId));
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.locator('[data-wallet="account"]')).toHaveText('not connected');
  return seen;
}

function one(events: StoredEvent[], description: string): StoredEvent {
  expect(events, description).toHaveLength(1);
  return events[0] as StoredEvent;
}

test('every event kind arrives with the fields the chain confirms', async ({ page }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${demo.url}/?utm_source=e2e&utm_medium=playwright&utm_campaign=journey`);
  await expect(page.locator('#status-sdk')).toHaveText(/^loaded from/);
  await expect(page.locator('#status-wallet')).toHaveText('Polyflow Test Wallet (EIP-6963)');
  const seen = await useEveryButton(page);
  await snap(page, 'sdk-journey-01-demo-after-every-button');

  // The dapp saw its own results, and the very rejection object its wallet made.
  expect(seen.rejectedTx?.data).toMatchObject({
    code: 4001,
    message: 'User rejected the request.',
    sameErrorAsWallet: true,
  });
  expect(seen.rejectedSignature?.data).toMatchObject({ code: 4001, sameErrorAsWallet: true });
  // The page's own errors still reached the page: the SDK listens, it does not swallow.
  expect(pageErrors).toEqual(
    expect.arrayContaining([
      expect.stringContaining('something broke'),
      expect.stringContaining('a promise nobody handled'),
    ]),
  );
  expect(
    (await demoLog(page))
      .filter((entry) => entry.outcome === 'error')
      .map((entry) => entry.action)
      .sort(),
  ).toEqual(['contract-revert', 'send-eth', 'sign-message']);

  // Leaving the page flushes what is queued (pagehide), as a visitor closing the tab would.
  await page.goto('about:blank');
  // 3 page views, detected, connected, 11 tx stages, 6 signature stages, 3 errors, 2 chain changes, disconnected.
  await waitForStoredCount(polyflow, project, 28);
  await polyflow.stop();
  const stored = await readStoredEvents(polyflow.dataDir, project.id);

  // Common fields: one visitor, one session, the page and its landing UTM parameters.
  expect(new Set(stored.map((event) => event.userId)).size).toBe(1);
  expect(new Set(stored.map((event) => event.sessionId)).size).toBe(1);
  for (const event of stored) {
    expect(event.id, 'client id').toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    // Enriched on the server: the page's host (whitelisted), and browser, OS and device from the User-Agent.
    expect(event).toMatchObject({ origin: 'localhost', os: 'Linux', device: 'desktop' });
    expect(event.browser).toMatch(/Chrom/);
    expect(event.sdk).toMatch(/^polyflow\//);
  }
  expect(new Set(stored.map((event) => event.id)).size, 'no event stored twice').toBe(stored.length);

  const views = eventsOf(stored, 'page_view');
  expect(views.map((view) => view.path)).toEqual(expect.arrayContaining(['/', '/about']));
  expect(views[0]?.utm).toMatchObject({ source: 'e2e', medium: 'playwright', campaign: 'journey' });

  const detected = one(eventsOf(stored, 'wallet_detected'), 'the test wallet is detected once');
  expect(detected.wallet).toMatchObject({
    provider: 'Polyflow Test Wallet',
    rdns: 'dev.polyflow.testwallet',
  });
  const account = (demo.accounts[0] as string).toLowerCase();
  expect(one(eventsOf(stored, 'wallet_connected'), 'connected once').wallet).toMatchObject({
    address: account,
  });
  expect(eventsOf(stored, 'wallet_disconnected')).toHaveLength(1);
  expect(
    eventsOf(stored, 'chain_changed').map((event) => (event.wallet as { chainId: number }).chainId),
  ).toEqual([demo.chainId + 1, demo.chainId]);

  // Transactions: every stage, and the receipt figures exactly as the chain has them.
  const txs = eventsOf(stored, 'tx');
  const byHash = async (hash: Hex, kind: 'coin' | 'contract', finalStage: 'confirmed' | 'reverted') => {
    const receipt = await chain.receipt(hash);
    const onChain = await chain.client.getTransaction({ hash });
    const final = one(
      txs.filter((tx) => tx.hash === hash && tx.stage === finalStage),
      `${finalStage} ${hash}`,
    );
    const stages = txs.filter((tx) => tx.txId === final.txId).map((tx) => tx.stage);
    expect(stages.sort()).toEqual(['requested', 'submitted', finalStage].sort());
    expect(final).toMatchObject({
      kind,
      from: account,
      to: onChain.to,
      value: String(onChain.value),
      nonce: String(onChain.nonce),
      gasLimit: String(onChain.gas),
      chainId: demo.chainId,
      gasUsed: String(receipt.gasUsed),
      effectiveGasPrice: String(receipt.effectiveGasPrice),
      blockNumber: String(receipt.blockNumber),
    });
    return { final, receipt };
  };
  const coin = await byHash(seen.sendEth?.data.hash as Hex, 'coin', 'confirmed');
  expect(coin.receipt.status).toBe('success');
  expect(coin.final.selector ?? null).toBeNull();
  const call = await byHash(seen.contractOk?.data.hash as Hex, 'contract', 'confirmed');
  expect(call.final.selector).toBe(SET_VALUE);
  const reverted = await byHash(seen.contractRevert?.data.hash as Hex, 'contract', 'reverted');
  expect(reverted.receipt.status).toBe('reverted');
  expect(reverted.final.gasLimit).toBe('200000');

  const rejectedTx = one(
    txs.filter((tx) => tx.stage === 'rejected'),
    'the rejected transaction',
  );
  expect(rejectedTx).toMatchObject({ kind: 'coin', to: (demo.accounts[1] as string).toLowerCase() });
  expect(rejectedTx.error).toMatchObject({ code: 4001, message: 'User rejected the request.' });
  expect(rejectedTx.hash ?? null).toBeNull();

  // Signatures: outcome only, never the message or the signature.
  const signatures = eventsOf(stored, 'signature');
  const stagesOf = (method: string) =>
    signatures
      .filter((event) => event.method === method)
      .map((event) => event.stage)
      .sort();
  expect(stagesOf('personal_sign')).toEqual(['rejected', 'requested', 'requested', 'signed']);
  expect(stagesOf('eth_signTypedData_v4')).toEqual(['requested', 'signed']);
  expect(JSON.stringify(signatures)).not.toContain(seen.signMessage?.data.signature as string);

  // Errors, each with the wallet state at that moment.
  const errors = eventsOf(stored, 'error');
  const thrown = one(
    errors.filter((e) => e.source === 'window'),
    'the thrown error',
  );
  expect(thrown.message).toContain('Demo dapp: something broke (thrown on purpose)');
  const rejection = one(
    errors.filter((e) => e.source === 'promise'),
    'the unhandled rejection',
  );
  expect(rejection.message).toContain('Demo dapp: a promise nobody handled');
  for (const error of [thrown, rejection]) {
    expect(error.walletState).toMatchObject({ chainId: demo.chainId, provider: 'Polyflow Test Wallet' });
    expect((error.walletState as { gasBalance: string }).gasBalance).toMatch(/^\d+$/);
    expect((error.walletState as { nonce: string }).nonce).toMatch(/^\d+$/);
  }
  // The dapp replayed the reverted call with eth_call to read the reason: a failed wallet call.
  const failedCall = errors.find((e) => e.source === 'wallet' && e.method === 'eth_call');
  expect(failedCall?.message).toContain('DemoStore: value must not be zero');
});
