import { expect, type Page, test } from '@playwright/test';
import { type DemoDapp, startDemoDapp } from '../../../examples/demo-dapp/src/demo-server.mjs';
import { startChain, type TestChain } from '../../support/chain.ts';
import { snap } from '../../support/screenshots.ts';
import { approveNext, clickAndWaitForLog } from './demo-page.ts';

// The demo dapp on its own (no SDK): the baseline the SDK journeys compare against.
let chain: TestChain;
let demo: DemoDapp;

test.beforeAll(async () => {
  chain = await startChain();
  demo = await startDemoDapp({ polyflowUrl: 'http://127.0.0.1:9', port: 0, rpcUrl: chain.rpcUrl });
});
test.afterAll(async () => {
  await demo?.close();
  await chain?.stop();
});
test.use({ viewport: { width: 1280, height: 900 } });

async function open(page: Page, query: string) {
  await page.goto(`${demo.url}/?sdk=off&${query}`);
  await expect(page.locator('#wallet-panel')).toHaveAttribute('data-installed', 'true');
}

test('every button works against the chain, with the wallet prompt and a rejection', async ({ page }) => {
  await open(page, '');
  await expect(page.locator('#status-wallet')).toHaveText('Polyflow Test Wallet (EIP-6963)');
  await expect(page.locator('#status-sdk')).toHaveText('snippet left out (?sdk=off)');

  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Connect 0xf39f');
  await snap(page, 'demo-dapp-01-connect-prompt');
  await approveNext(page);
  await expect(page.locator('#status-account')).toHaveText(demo.accounts[0] as string);

  const sent = await clickAndWaitForLog(page, 'Send ETH', 'send-eth', { approve: true, stage: 'mined' });
  const receipt = await chain.receipt(sent.data.hash as `0x${string}`);
  expect(receipt.status).toBe('success');
  expect(receipt.to).toBe(demo.accounts[1]);
  expect(String(receipt.gasUsed)).toBe(sent.data.gasUsed);

  const ok = await clickAndWaitForLog(page, 'Call a contract', 'contract-ok', {
    approve: true,
    stage: 'mined',
  });
  expect((await chain.receipt(ok.data.hash as `0x${string}`)).status).toBe('success');

  const reverted = await clickAndWaitForLog(page, 'Call a contract (reverts)', 'contract-revert', {
    approve: true,
    stage: 'mined',
  });
  expect(reverted.outcome).toBe('error');
  expect(reverted.detail).toContain('DemoStore: value must not be zero');
  expect((await chain.receipt(reverted.data.hash as `0x${string}`)).status).toBe('reverted');

  const signed = await clickAndWaitForLog(page, 'Sign a message', 'sign-message', { approve: true });
  expect(signed.data.signature).toMatch(/^0x[0-9a-f]{130}$/);
  const typed = await clickAndWaitForLog(page, 'Sign typed data', 'sign-typed-data', { approve: true });
  expect(typed.data.signature).toMatch(/^0x[0-9a-f]{130}$/);

  const rejected = await clickAndWaitForLog(page, 'Send ETH', 'send-eth', { reject: true });
  expect(rejected.outcome).toBe('error');
  expect(rejected.data).toMatchObject({
    code: 4001,
    message: 'User rejected the request.',
    sameErrorAsWallet: true,
  });
  await snap(page, 'demo-dapp-02-after-all-actions');
});

test('with the wallet installed late and the dapp using window.ethereum, it still works', async ({
  page,
}) => {
  await open(page, 'wallet=late&via=window&autoApprove=1');
  await expect(page.locator('#status-wallet')).toHaveText('window.ethereum');
  const connected = await clickAndWaitForLog(page, 'Connect', 'connect');
  expect(connected.data.accounts).toEqual([demo.accounts[0]]);
  const ok = await clickAndWaitForLog(page, 'Call a contract', 'contract-ok', { stage: 'mined' });
  expect(ok.outcome).toBe('ok');
});
