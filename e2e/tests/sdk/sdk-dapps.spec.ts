import { expect, type Page, test } from '@playwright/test';
import { rpcCall } from '../../../examples/demo-dapp/src/anvil.mjs';
import { deployDemoStore } from '../../../examples/demo-dapp/src/deploy.mjs';
import { startChain, type TestChain } from '../../support/chain.ts';
import { recordSentEvents, waitForSentOutcomes } from '../../support/sdk-batches.ts';
import {
  buildDapps,
  DAPPS,
  type DappName,
  type DappServer,
  type LoadOrder,
  startDappServer,
} from '../../support/test-dapps.ts';
import {
  batchHashes,
  checkAnalytics,
  type Hex,
  hashOf,
  type Journey,
  type Outcome,
} from './dapp-analytics.ts';
import { waitForStoredCount } from './integration.ts';
import {
  createProject,
  type OwnedProject,
  type PolyflowInstance,
  removeInstanceData,
  startPolyflow,
} from './polyflow-instance.ts';
import { eventsOf, readStoredEvents } from './stored-events.ts';

// Three dapps written the way most are (ethers v6, viem, wagmi on React), built from source, each doing
// what a user does, once without the SDK and once per load order with it. What the dapp sees must not
// change; what Polyflow stores must equal the chain's receipts. One chain, one Polyflow server and one
// dapp server for the whole file.
test.describe.configure({ mode: 'serial' });

let chain: TestChain;
let polyflow: PolyflowInstance;
let dapps: DappServer;
let accounts: Hex[];
const baseline = new Map<DappName, Journey>();
/** What each journey with the SDK expects to find stored, checked against the raw rows at the end. */
const recorded: { dapp: DappName; order: LoadOrder; project: OwnedProject; journey: Journey }[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const bundles = buildDapps();
  // Blocks keep coming, as on a live chain. With automine alone, ethers' `tx.wait()` can wait forever: when
  // its receipt read lands just before the block is mined and its block poller's first reading just after,
  // it waits for a next block that no one mines (seen once in CI, on "ethers: SDK loaded after the dapp").
  // The chain and the server start side by side; afterAll stops whichever started.
  const [chainStart, polyflowStart] = await Promise.allSettled([
    startChain({ blockTime: 1 }).then((value) => (chain = value)),
    startPolyflow().then((value) => (polyflow = value)),
  ]);
  for (const result of [chainStart, polyflowStart]) if (result.status === 'rejected') throw result.reason;
  accounts = ((await rpcCall(chain.rpcUrl, 'eth_accounts')) as Hex[]).slice(0, 2);
  const contractAddress = (await deployDemoStore(chain.rpcUrl, accounts[0] as Hex)) as Hex;
  dapps = await startDappServer(
    { rpcUrl: chain.rpcUrl, chainId: chain.chainId, accounts, contractAddress, polyflowUrl: polyflow.url },
    await bundles,
  );
});

test.afterAll(async () => {
  await dapps?.close();
  await polyflow?.stop();
  await chain?.stop();
  if (polyflow) removeInstanceData(polyflow);
});

/** Runs one dapp action; `decision` answers the test wallet's prompt as the person would. */
async function act(page: Page, action: string, decision?: 'approve' | 'reject', arg?: number) {
  const outcome = page.evaluate(
    ([name, value]) =>
      (window as unknown as { dapp: Record<string, (v?: number) => Promise<Outcome>> }).dapp[
        name as string
      ]?.(value as number | undefined),
    [action, arg] as const,
  );
  if (decision) {
    await page.waitForFunction(
      () => (window as unknown as { testWallet: { pending: unknown[] } }).testWallet.pending.length > 0,
    );
    await page.evaluate(
      (d) => (window as unknown as { testWallet: Record<string, () => void> }).testWallet[d]?.(),
      decision,
    );
  }
  return (await outcome) as Outcome;
}

async function useDapp(page: Page, dapp: DappName, order: LoadOrder, apiKey = ''): Promise<Journey> {
  const sent = recordSentEvents(page);
  await page.goto(dapps.url(dapp, order, apiKey));
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  const journey: Journey = {};
  journey.connect = await act(page, 'connect', 'approve');
  journey.transfer = await act(page, 'transfer', 'approve');
  journey.contractCall = await act(page, 'contractCall', 'approve');
  // Refused at gas estimation (by ethers itself, or by the wallet): no prompt.
  journey.revertAtEstimation = await act(page, 'revertAtEstimation');
  journey.revertOnChain = await act(page, 'revertOnChain', 'approve');
  journey.rejectedTransfer = await act(page, 'rejectedTransfer', 'reject');
  journey.signMessage = await act(page, 'signMessage', 'approve');
  journey.switchAway = await act(page, 'switchChain', 'approve', chain.chainId + 1);
  journey.switchBack = await act(page, 'switchChain', 'approve', chain.chainId);
  journey.batch = await act(page, 'batch', 'approve');
  // The person switches to the wallet's other account and back (accountsChanged): wagmi follows.
  for (const account of [accounts[1], accounts[0]] as Hex[]) {
    await page.evaluate(() =>
      (window as unknown as { testWallet: { switchAccount(): void } }).testWallet.switchAccount(),
    );
    if (dapp === 'wagmi') await expect(page.getByTestId('account')).toHaveText(new RegExp(account, 'i'));
  }
  // A person reads the result before closing the tab; meanwhile the SDK reads the receipts. The page stays
  // until the SDK has sent an outcome for every mined hash, the batch's included (sdk-batches.ts). viem with
  // the SDK loaded late sees no transaction (see the test). Leaving the page then flushes what is still
  // queued, as closing the tab would.
  if (order !== 'none' && !(dapp === 'viem' && order === 'late')) {
    const mined = [
      hashOf(journey.transfer),
      hashOf(journey.contractCall),
      hashOf(journey.revertOnChain),
      ...batchHashes(journey.batch),
    ];
    await waitForSentOutcomes(page, sent, mined, 20_000);
  }
  await page.goto('about:blank');
  return journey;
}

/**
 * Hashes, nonces, fees and gas differ from run to run (one chain for the file, storage already set), and so
 * do the ids of ethers' own JSON-RPC requests (it polls for receipts on a timer): the rest must be identical.
 */
const comparable = (journey: Journey) =>
  JSON.parse(
    JSON.stringify(journey)
      .replace(/0x[0-9a-f]{64}/gi, '0xHASH')
      .replace(/"gasUsed":"(\d+|0x[0-9a-f]+)"/g, '"gasUsed":"N"')
      .replace(/\\"id\\": \d+/g, '\\"id\\": N')
      .replace(/(nonce|maxFeePerGas): +[\d.]+/g, '$1: N'),
  );

for (const dapp of DAPPS) {
  test(`${dapp}: the dapp's journey without the SDK`, async ({ page }) => {
    const journey = await useDapp(page, dapp, 'none');
    expect(journey.revertAtEstimation?.error).toBeDefined();
    expect(JSON.stringify(journey.revertAtEstimation)).toContain('DemoStore: value must not be zero');
    expect(JSON.stringify(journey.rejectedTransfer)).toContain('4001');
    expect(batchHashes(journey.batch)).toHaveLength(2);
    baseline.set(dapp, journey);
  });

  for (const order of ['first', 'late'] as const) {
    test(`${dapp}: SDK loaded ${order === 'first' ? 'before' : 'after'} the dapp`, async ({ page }) => {
      test.setTimeout(90_000);
      const project = await createProject(polyflow, ['localhost']);
      const journey = await useDapp(page, dapp, order, project.apiKey);
      // The dapp sees exactly what it sees without the SDK: values, error names, codes and messages.
      expect(comparable(journey)).toEqual(comparable(baseline.get(dapp) as Journey));
      recorded.push({ dapp, order, project, journey });
      if (dapp === 'viem' && order === 'late') {
        // viem kept the wallet's own `request` when its client was created, before the SDK loaded: none of
        // its calls pass through the SDK (README: load the script tag before the dapp's scripts). The
        // wallet's events still do: the connection and both chain changes.
        await waitForStoredCount(polyflow, project, 4);
        return;
      }
      // page views, detection, connection, 2 chain changes, 2 signature stages and at least 15 tx stages.
      await waitForStoredCount(polyflow, project, 22);
      await checkAnalytics(polyflow, chain, project, journey);
    });
  }
}

test('what is stored equals the chain, for every dapp and load order', async () => {
  await polyflow.stop();
  for (const { dapp, order, project, journey } of recorded) {
    const stored = await readStoredEvents(polyflow.dataDir, project.id);
    const label = `${dapp}, SDK ${order}`;
    const account = accounts[0]?.toLowerCase();
    expect(
      eventsOf(stored, 'wallet_connected').map((e) => e.wallet.address),
      `${label}: connected, then the two account switches`,
    ).toEqual([account, accounts[1]?.toLowerCase(), account]);
    expect(
      eventsOf(stored, 'chain_changed').map((e) => e.wallet.chainId),
      label,
    ).toEqual([chain.chainId + 1, chain.chainId]);
    const txs = eventsOf(stored, 'tx');
    if (dapp === 'viem' && order === 'late') {
      expect(txs, label).toEqual([]);
      expect(eventsOf(stored, 'signature'), label).toEqual([]);
      continue;
    }
    expect(
      eventsOf(stored, 'signature').map((e) => e.stage),
      label,
    ).toEqual(['requested', 'signed']);
    // Every receipt, the batch's included, stored under its hash with the chain's status and gas used.
    const hashes = [
      hashOf(journey.transfer),
      hashOf(journey.contractCall),
      hashOf(journey.revertOnChain),
      ...batchHashes(journey.batch),
    ] as Hex[];
    for (const hash of hashes) {
      const receipt = await chain.receipt(hash);
      const outcome = txs.filter(
        (tx) => tx.hash === hash && (tx.stage === 'confirmed' || tx.stage === 'reverted'),
      );
      expect(outcome, `${label}: ${hash}`).toHaveLength(1);
      expect(outcome[0]).toMatchObject({
        stage: receipt.status === 'success' ? 'confirmed' : 'reverted',
        gasUsed: String(receipt.gasUsed),
        effectiveGasPrice: String(receipt.effectiveGasPrice),
        blockNumber: String(receipt.blockNumber),
      });
    }
    // The revert caught at estimation: a failed transaction with the revert reason and the call it was.
    const failed = txs.filter((tx) => tx.stage === 'failed');
    expect(failed, label).toHaveLength(1);
    expect(failed[0]?.error?.message).toContain('execution reverted: DemoStore: value must not be zero');
    expect(failed[0]).toMatchObject({ kind: 'contract', selector: '0x55241077', from: account });
    // The batch's calls: one `requested` stage each, under one transaction id.
    const batchId = txs.find((tx) => tx.hash === hashes[3])?.txId;
    const calls = txs.filter((tx) => tx.txId === batchId && tx.stage === 'requested');
    expect(
      calls.map((call) => call.to),
      label,
    ).toEqual([accounts[1]?.toLowerCase(), expect.any(String)]);
    expect(calls[1]?.selector).toBe('0x55241077');
  }
});
