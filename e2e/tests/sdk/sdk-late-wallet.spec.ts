import { expect, test } from '@playwright/test';
import type { DemoDapp } from '../../../examples/demo-dapp/src/demo-server.mjs';
import type { TestChain } from '../../support/chain.ts';
import { clickAndWaitForLog } from './demo-page.ts';
import { waitForStoredCount } from './integration.ts';
import type { OwnedProject, PolyflowInstance } from './polyflow-instance.ts';
import { startSdkStack, stopSdkStack } from './sdk-stack.ts';
import { eventsOf, readStoredEvents } from './stored-events.ts';

// The other order: the SDK runs first, the wallet arrives later (a slow extension) and is found through
// its EIP-6963 announcement; the dapp uses `window.ethereum`, read at each call.
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

test('a wallet installed after the SDK is still recorded', async ({ page }) => {
  // Notes the order in which the SDK (`window.Polyflow`) and the wallet (`window.ethereum`) arrive.
  await page.addInitScript(() => {
    const order: string[] = [];
    const values: Record<string, unknown> = {};
    for (const [name, label] of [
      ['Polyflow', 'sdk'],
      ['ethereum', 'wallet'],
    ] as const) {
      Object.defineProperty(window, name, {
        configurable: true,
        get: () => values[name],
        set: (value) => {
          values[name] = value;
          order.push(label);
        },
      });
    }
    (window as unknown as { arrivalOrder: string[] }).arrivalOrder = order;
  });
  // The SDK's lookup of the sent transaction (a call the dapp never makes) answers a second late, as on a
  // loaded machine: the journey always runs the order that once lost the `confirmed` stage (see below).
  await page.route('**/rpc', async (route) => {
    if (route.request().postData()?.includes('"eth_getTransactionByHash"')) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    await route.continue();
  });
  await page.goto(`${demo.url}/?wallet=late&via=window&autoApprove=1`);
  await expect(page.locator('#wallet-panel')).toHaveAttribute('data-installed', 'true');
  expect(await page.evaluate(() => (window as unknown as { arrivalOrder: string[] }).arrivalOrder)).toEqual([
    'sdk',
    'wallet',
  ]);
  await clickAndWaitForLog(page, 'Connect', 'connect');
  const call = await clickAndWaitForLog(page, 'Call a contract', 'contract-ok', { stage: 'mined' });
  // The dapp logs "mined" after one receipt read; the SDK looks the transaction up first and reads the
  // receipt after, so it reports `confirmed` one wallet call later. Leaving the page at once raced that
  // call (lost on a loaded machine: 5 events stored). The page stays until the server holds all six
  // (page view, detected, connected, requested, submitted, confirmed), which the SDK sends on its timer or
  // when the page calls its `flush()`.
  await waitForStoredCount(polyflow, project, 6, { flushing: page });
  await page.goto('about:blank');
  await polyflow.stop();

  const stored = await readStoredEvents(polyflow.dataDir, project.id);
  expect(eventsOf(stored, 'wallet_detected')[0]?.wallet).toMatchObject({
    provider: 'Polyflow Test Wallet',
    rdns: 'dev.polyflow.testwallet',
  });
  expect(eventsOf(stored, 'wallet_connected')[0]?.wallet.address).toBe(
    (demo.accounts[0] as string).toLowerCase(),
  );
  const receipt = await chain.receipt(call.data.hash as `0x${string}`);
  const confirmed = eventsOf(stored, 'tx', (tx) => tx.stage === 'confirmed');
  expect(confirmed).toHaveLength(1);
  expect(confirmed[0]).toMatchObject({
    hash: call.data.hash,
    gasUsed: String(receipt.gasUsed),
    blockNumber: String(receipt.blockNumber),
  });
});
