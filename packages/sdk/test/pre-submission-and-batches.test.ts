import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ADDRESS,
  byType,
  cleanUp,
  fakeProvider,
  inject,
  OTHER_ADDRESS,
  settle,
  start,
  stubFetch,
  TX_HASH,
} from './helpers.ts';

afterEach(cleanUp);

const STORE = `0x${'de'.repeat(20)}`;
const SET_ZERO = `0x55241077${'0'.repeat(64)}`;
const HASH_2 = `0x${'d'.repeat(64)}`;
const REVERT = {
  code: 3,
  message: 'execution reverted: DemoStore: value must not be zero',
  data: '0x08c379a0',
};
const receipt = (hash: string, status: string, gasUsed: string) => ({
  transactionHash: hash,
  status,
  gasUsed,
  effectiveGasPrice: '0x3b9aca00',
  blockNumber: '0x10',
});

async function connectedWallet(overrides: Parameters<typeof fakeProvider>[0] = {}) {
  const sent = stubFetch();
  const wallet = fakeProvider(overrides);
  inject(wallet.provider);
  const handle = await start();
  await wallet.provider.request({ method: 'eth_requestAccounts' });
  await settle();
  return { sent, wallet, handle };
}

describe('transactions that fail before submission', () => {
  it('records a revert at gas estimation as a failed transaction with its reason, and the dapp gets the same error', async () => {
    const { sent, wallet, handle } = await connectedWallet({
      eth_estimateGas: () => {
        throw REVERT;
      },
    });
    await expect(
      wallet.provider.request({
        method: 'eth_estimateGas',
        params: [{ from: ADDRESS, to: STORE, data: SET_ZERO }],
      }),
    ).rejects.toBe(REVERT);
    await settle(30);
    await handle.flush();
    const txs = byType(sent.events(), 'tx');
    expect(txs.map((tx) => tx.stage)).toEqual(['requested', 'failed']);
    expect(new Set(txs.map((tx) => tx.txId)).size).toBe(1);
    expect(txs[1]).toMatchObject({
      kind: 'contract',
      selector: '0x55241077',
      from: ADDRESS.toLowerCase(),
      to: STORE,
      chainId: 31337,
      error: { code: 3, message: REVERT.message },
    });
    expect(txs[1]?.hash).toBeUndefined();
    // Still a failed wallet call too, as every other one.
    expect(byType(sent.events(), 'error').map((e) => e.method)).toEqual(['eth_estimateGas']);
  });

  it("keeps the node's revert reason when the wallet wraps it (MetaMask's Internal JSON-RPC error)", async () => {
    const wrapped = { code: -32603, message: 'Internal JSON-RPC error.', data: REVERT };
    const { sent, wallet, handle } = await connectedWallet({
      eth_estimateGas: () => {
        throw wrapped;
      },
    });
    await expect(
      wallet.provider.request({ method: 'eth_estimateGas', params: [{ to: STORE }] }),
    ).rejects.toBe(wrapped);
    await settle(30);
    await handle.flush();
    expect(byType(sent.events(), 'tx')[1]?.error).toEqual({ code: -32603, message: REVERT.message });
  });

  it('records nothing for an estimation that succeeds: the transaction is the send that follows', async () => {
    const { sent, wallet, handle } = await connectedWallet({ eth_estimateGas: () => '0x5208' });
    expect(await wallet.provider.request({ method: 'eth_estimateGas', params: [{ to: STORE }] })).toBe(
      '0x5208',
    );
    await settle(30);
    await handle.flush();
    expect(byType(sent.events(), 'tx')).toEqual([]);
  });

  it('follows wallet_sendTransaction as eth_sendTransaction', async () => {
    const { sent, wallet, handle } = await connectedWallet({
      wallet_sendTransaction: () => TX_HASH,
      eth_getTransactionReceipt: () => receipt(TX_HASH, '0x1', '0x5208'),
    });
    expect(
      await wallet.provider.request({
        method: 'wallet_sendTransaction',
        params: [{ to: OTHER_ADDRESS, value: '0x1' }],
      }),
    ).toBe(TX_HASH);
    await settle(30);
    await handle.flush();
    const txs = byType(sent.events(), 'tx');
    expect(txs.map((tx) => tx.stage)).toEqual(['requested', 'submitted', 'confirmed']);
    expect(txs[2]).toMatchObject({ kind: 'coin', hash: TX_HASH, value: '1', gasUsed: '21000' });
  });
});

describe('EIP-5792 batches', () => {
  const calls = [
    { to: OTHER_ADDRESS, value: '0x2386f26fc10000' },
    { to: STORE, data: `0x55241077${'0'.repeat(63)}7` },
  ];
  const sendCalls = (wallet: ReturnType<typeof fakeProvider>) =>
    wallet.provider.request({
      method: 'wallet_sendCalls',
      params: [{ version: '2.0.0', from: ADDRESS, chainId: '0x7a69', atomicRequired: false, calls }],
    });

  it('records one transaction: a stage per call, its receipts, and its outcome with the total gas', async () => {
    vi.useFakeTimers();
    let status = 100;
    const { sent, wallet, handle } = await connectedWallet({
      wallet_sendCalls: () => ({ id: 'batch-1' }),
      wallet_getCallsStatus: ([id]) => ({
        version: '2.0.0',
        id,
        status,
        atomic: false,
        receipts:
          status === 100
            ? undefined
            : [
                { transactionHash: TX_HASH, status: '0x1', gasUsed: '0x5208', blockNumber: '0x10' },
                { transactionHash: HASH_2, status: '0x1', gasUsed: '0x6cf4', blockNumber: '0x11' },
              ],
      }),
      eth_getTransactionReceipt: ([hash]) =>
        hash === TX_HASH ? receipt(TX_HASH, '0x1', '0x5208') : receipt(HASH_2, '0x1', '0x6cf4'),
    });
    expect(await sendCalls(wallet)).toEqual({ id: 'batch-1' });
    await vi.advanceTimersByTimeAsync(3000);
    await handle.flush();
    expect(byType(sent.events(), 'tx').map((tx) => tx.stage)).toEqual([
      'requested',
      'requested',
      'submitted',
    ]);
    status = 200;
    await vi.advanceTimersByTimeAsync(5000);
    await handle.flush();
    const txs = byType(sent.events(), 'tx');
    expect(new Set(txs.map((tx) => tx.txId)).size).toBe(1);
    expect(txs.map((tx) => [tx.stage, tx.hash, tx.gasUsed])).toEqual([
      ['requested', undefined, undefined],
      ['requested', undefined, undefined],
      ['submitted', undefined, undefined],
      ['confirmed', TX_HASH, '21000'],
      ['confirmed', HASH_2, '27892'],
      ['confirmed', undefined, '48892'],
    ]);
    // Each call as it was asked for; one type for the whole batch (a call has calldata: Contract).
    expect(txs[0]).toMatchObject({ to: OTHER_ADDRESS, value: '10000000000000000', chainId: 31337 });
    expect(txs[0]?.selector).toBeUndefined();
    expect(txs[1]).toMatchObject({ to: STORE, selector: '0x55241077' });
    expect(new Set(txs.map((tx) => tx.kind))).toEqual(new Set(['contract']));
    expect(txs[3]).toMatchObject({ effectiveGasPrice: '1000000000', blockNumber: '16' });
    // The outcome comes a millisecond after the receipts: it is the batch's latest stage.
    expect((txs[5]?.ts as number) > (txs[4]?.ts as number)).toBe(true);
  });

  it('says reverted when a call reverted on chain, failed when the wallet could not include the batch', async () => {
    const { sent, wallet, handle } = await connectedWallet({
      wallet_sendCalls: () => 'batch-v1-id',
      wallet_getCallsStatus: ([id]) =>
        id === 'batch-v1-id'
          ? { status: 600, receipts: [{ transactionHash: TX_HASH, status: '0x0', gasUsed: '0x6000' }] }
          : { status: 400 },
    });
    await sendCalls(wallet);
    await settle(40);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await handle.flush();
    const first = byType(sent.events(), 'tx');
    expect(first.map((tx) => tx.stage)).toEqual([
      'requested',
      'requested',
      'submitted',
      'reverted',
      'reverted',
    ]);
    // Without a full receipt from the node, the wallet's own receipt is what is known.
    expect(first[3]).toMatchObject({ hash: TX_HASH, gasUsed: '24576' });

    wallet.handlers.wallet_sendCalls = () => ({ id: 'never-included' });
    await sendCalls(wallet);
    await settle(40);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await handle.flush();
    const second = byType(sent.events(), 'tx').slice(first.length);
    expect(second.map((tx) => tx.stage)).toEqual(['requested', 'requested', 'submitted', 'failed']);
  });

  it('records a batch the user rejects as rejected, with the same error for the dapp', async () => {
    const rejection = { code: 4001, message: 'User rejected the request.' };
    const { sent, wallet, handle } = await connectedWallet({
      wallet_sendCalls: () => {
        throw rejection;
      },
    });
    await expect(sendCalls(wallet)).rejects.toBe(rejection);
    await settle();
    await handle.flush();
    expect(byType(sent.events(), 'tx').map((tx) => tx.stage)).toEqual(['requested', 'requested', 'rejected']);
    expect(byType(sent.events(), 'error')).toEqual([]);
  });
});
