import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ADDRESS,
  byType,
  cleanUp,
  fakeProvider,
  inject,
  loadSdk,
  settle,
  start,
  stubFetch,
  TX_HASH,
} from './helpers.ts';

afterEach(cleanUp);

const TO = `0x${'de'.repeat(20)}`;
const minedTx = { hash: TX_HASH, from: ADDRESS, to: TO, nonce: '0x5', gas: '0x5208', gasPrice: '0x3b9aca00' };
const receipt = (status: string) => ({
  transactionHash: TX_HASH,
  status,
  gasUsed: '0x5208',
  effectiveGasPrice: '0x3b9aca00',
  blockNumber: '0x10',
});

async function connectedWallet(overrides: Parameters<typeof fakeProvider>[0] = {}) {
  const sent = stubFetch();
  const wallet = fakeProvider({ eth_sendTransaction: () => TX_HASH, ...overrides });
  inject(wallet.provider);
  const handle = await start();
  await wallet.provider.request({ method: 'eth_requestAccounts' });
  await settle();
  return { sent, wallet, handle };
}

describe('transactions', () => {
  it('follows a coin transfer to confirmed, filling nonce and gas from the node', async () => {
    const { sent, wallet, handle } = await connectedWallet({
      eth_getTransactionByHash: () => minedTx,
      eth_getTransactionReceipt: () => receipt('0x1'),
    });
    const hash = await wallet.provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: ADDRESS, to: TO, value: '0xde0b6b3a7640000' }],
    });
    expect(hash).toBe(TX_HASH);
    await settle(30);
    await handle.flush();
    const txs = byType(sent.events(), 'tx');
    expect(txs.map((tx) => tx.stage)).toEqual(['requested', 'submitted', 'confirmed']);
    expect(new Set(txs.map((tx) => tx.txId)).size).toBe(1);
    expect(txs[0]).toMatchObject({ kind: 'coin', value: '1000000000000000000', to: TO, chainId: 31337 });
    expect(txs[0]?.nonce).toBeUndefined();
    expect(txs[0]?.selector).toBeUndefined();
    // `submitted` goes when the wallet returns the hash; what the node adds follows with the later stages.
    expect(txs[1]).toMatchObject({ hash: TX_HASH });
    expect(txs[2]).toMatchObject({
      hash: TX_HASH,
      nonce: '5',
      gasLimit: '21000',
      gasPrice: '1000000000',
      gasUsed: '21000',
      effectiveGasPrice: '1000000000',
      blockNumber: '16',
    });
  });

  it('records a reverted contract call with its selector and fee fields', async () => {
    const { sent, wallet, handle } = await connectedWallet({
      eth_getTransactionReceipt: () => receipt('0x0'),
    });
    await wallet.provider.request({
      method: 'eth_sendTransaction',
      params: [
        {
          to: TO,
          data: '0xa9059cbb0000',
          gas: '0x186a0',
          maxFeePerGas: '0x2',
          maxPriorityFeePerGas: '0x1',
          nonce: '0x7',
        },
      ],
    });
    await settle(30);
    await handle.flush();
    const txs = byType(sent.events(), 'tx');
    expect(txs.map((tx) => tx.stage)).toEqual(['requested', 'submitted', 'reverted']);
    expect(txs[0]).toMatchObject({
      kind: 'contract',
      selector: '0xa9059cbb',
      from: ADDRESS.toLowerCase(),
      gasLimit: '100000',
      maxFeePerGas: '2',
      maxPriorityFeePerGas: '1',
      nonce: '7',
    });
  });

  it('gives the dapp the very same rejection, and records it as rejected without an error event', async () => {
    const rejection = Object.assign(new Error('User rejected the request.'), { code: 4001 });
    const { sent, wallet, handle } = await connectedWallet({
      eth_sendTransaction: () => {
        throw rejection;
      },
    });
    const outcome = await wallet.provider
      .request({ method: 'eth_sendTransaction', params: [{ to: TO }] })
      .catch((e) => e);
    expect(outcome).toBe(rejection);
    await settle();
    await handle.flush();
    const txs = byType(sent.events(), 'tx');
    expect(txs.map((tx) => [tx.stage, tx.error])).toEqual([
      ['requested', undefined],
      ['rejected', { code: 4001, message: 'User rejected the request.' }],
    ]);
    expect(byType(sent.events(), 'error')).toHaveLength(0);
  });

  it('records other wallet errors as failed, plus a wallet error with the wallet state', async () => {
    const failure = { code: -32000, message: 'insufficient funds for gas * price + value' };
    const { sent, wallet, handle } = await connectedWallet({
      eth_sendTransaction: () => {
        throw failure;
      },
    });
    await expect(
      wallet.provider.request({ method: 'eth_sendTransaction', params: [{ to: TO }] }),
    ).rejects.toBe(failure);
    await settle(30);
    await handle.flush();
    expect(byType(sent.events(), 'tx').map((tx) => tx.stage)).toEqual(['requested', 'failed']);
    expect(byType(sent.events(), 'error')[0]).toMatchObject({
      source: 'wallet',
      code: -32000,
      method: 'eth_sendTransaction',
      message: failure.message,
      walletState: { gasBalance: '1000000000000000000', nonce: '5', chainId: 31337 },
    });
  });

  it('keeps `this`, arguments and synchronous throws exactly as the original request had them', async () => {
    const { wallet } = await connectedWallet();
    const other = { name: 'other' };
    await wallet.provider.request.call(other, { method: 'eth_chainId' });
    expect(wallet.calls.at(-1)).toMatchObject({ method: 'eth_chainId', self: other });
    await wallet.provider.request({ method: 'eth_chainId' });
    expect(wallet.calls.at(-1)?.self).toBe(wallet.provider);
    const boom = new TypeError('bad arguments');
    const original = wallet.original;
    const throwing = function (this: unknown) {
      throw boom;
    };
    // A provider whose request throws synchronously (no promise at all).
    const sync = fakeProvider();
    sync.provider.request = throwing as never;
    inject(sync.provider);
    window.dispatchEvent(new Event('ethereum#initialized'));
    expect(sync.provider.request).not.toBe(throwing);
    expect(() => sync.provider.request({ method: 'eth_chainId' })).toThrow(boom);
    expect(original).toBeTypeOf('function');
  });

  it('polls receipts through the original request: its failures are not reported as dapp errors', async () => {
    vi.useFakeTimers();
    let polls = 0;
    const { sent, wallet, handle } = await connectedWallet({
      eth_getTransactionReceipt: () => {
        polls++;
        if (polls < 3) throw { code: -32603, message: 'header not found' };
        return polls < 4 ? null : receipt('0x1');
      },
    });
    await wallet.provider.request({ method: 'eth_sendTransaction', params: [{ to: TO, nonce: '0x5' }] });
    await vi.advanceTimersByTimeAsync(10_000);
    await handle.flush();
    expect(polls).toBe(4);
    expect(byType(sent.events(), 'tx').map((tx) => tx.stage)).toEqual([
      'requested',
      'submitted',
      'confirmed',
    ]);
    expect(byType(sent.events(), 'error')).toHaveLength(0);
  });

  it('says replaced when the account mined our nonce and our hash never got a receipt', async () => {
    vi.useFakeTimers();
    let mined = 5;
    const { sent, wallet, handle } = await connectedWallet({
      eth_getTransactionByHash: () => minedTx,
      eth_getTransactionReceipt: () => null,
      eth_getTransactionCount: () => `0x${mined.toString(16)}`,
    });
    await wallet.provider.request({ method: 'eth_sendTransaction', params: [{ to: TO }] });
    await vi.advanceTimersByTimeAsync(5000);
    await handle.flush();
    expect(byType(sent.events(), 'tx').map((tx) => tx.stage)).toEqual(['requested', 'submitted']);
    mined = 6; // a speed-up with our nonce was mined
    await vi.advanceTimersByTimeAsync(15_000);
    await handle.flush();
    const txs = byType(sent.events(), 'tx');
    expect(txs.map((tx) => tx.stage)).toEqual(['requested', 'submitted', 'replaced']);
    expect(txs[2]?.nonce).toBe('5');
  });

  it('says dropped when the node forgets our hash for a minute while the nonce has not moved', async () => {
    vi.useFakeTimers();
    const { sent, wallet, handle } = await connectedWallet({
      eth_getTransactionByHash: () => null,
      eth_getTransactionReceipt: () => null,
    });
    await wallet.provider.request({ method: 'eth_sendTransaction', params: [{ to: TO, nonce: '0x5' }] });
    await vi.advanceTimersByTimeAsync(20_000);
    await handle.flush();
    expect(byType(sent.events(), 'tx').map((tx) => tx.stage)).toEqual(['requested', 'submitted']);
    await vi.advanceTimersByTimeAsync(60_000);
    await handle.flush();
    expect(byType(sent.events(), 'tx').map((tx) => tx.stage)).toEqual(['requested', 'submitted', 'dropped']);
  });

  it('records submitted with its hash as soon as the wallet returns it, add-on loaded or not, and sends it on page hide', async () => {
    const sent = stubFetch();
    const wallet = fakeProvider({ eth_sendTransaction: () => TX_HASH });
    inject(wallet.provider);
    // The add-on is still loading when the page goes (the dapp navigates on the hash).
    const handle = await loadSdk({ flushIntervalMs: 60_000 }, () => new Promise(() => {}));
    await wallet.provider.request({ method: 'eth_requestAccounts' });
    await settle();
    await handle.flush();
    const hash = await wallet.provider.request({ method: 'eth_sendTransaction', params: [{ to: TO }] });
    expect(hash).toBe(TX_HASH);
    const before = sent.requests.length;
    window.dispatchEvent(new Event('pagehide'));
    await settle();
    handle.detach();
    const txs = sent.requests.slice(before).flatMap((request) => request.batch.events);
    expect(
      txs.map((tx) => [tx.type, (tx as { stage?: string }).stage, (tx as { hash?: string }).hash]),
    ).toEqual([
      ['tx', 'requested', undefined],
      ['tx', 'submitted', TX_HASH],
    ]);
    expect(sent.requests.at(-1)?.init.keepalive).toBe(true);
  });

  /** A wallet on two chains (31337, 31338): every answer is the current chain's, as a real wallet's. */
  async function twoChainWallet(answers: Record<number, Record<string, () => unknown>>) {
    let chain = 31337;
    const on = (method: string) => () => answers[chain]?.[method]?.() ?? null;
    const { sent, wallet, handle } = await connectedWallet({
      eth_chainId: () => `0x${chain.toString(16)}`,
      eth_getTransactionReceipt: on('eth_getTransactionReceipt'),
      eth_getTransactionByHash: on('eth_getTransactionByHash'),
      eth_getTransactionCount: on('eth_getTransactionCount'),
    });
    const switchTo = (id: number) => {
      chain = id;
      wallet.provider.fire('chainChanged', `0x${id.toString(16)}`);
    };
    const stages = async () => {
      await handle.flush();
      return byType(sent.events(), 'tx').map((tx) => tx.stage);
    };
    return { wallet, switchTo, stages };
  }

  it('concludes nothing while the wallet is on another chain (nonce higher there), and confirms when it comes back', async () => {
    vi.useFakeTimers();
    let mined = false;
    const { wallet, switchTo, stages } = await twoChainWallet({
      31337: {
        eth_getTransactionByHash: () => minedTx,
        eth_getTransactionReceipt: () => (mined ? receipt('0x1') : null),
        eth_getTransactionCount: () => (mined ? '0x6' : '0x5'),
      },
      // The account has used more nonces on the other chain, and our hash is unknown there.
      31338: { eth_getTransactionCount: () => '0x9' },
    });
    await wallet.provider.request({ method: 'eth_sendTransaction', params: [{ to: TO, nonce: '0x5' }] });
    await vi.advanceTimersByTimeAsync(500);
    switchTo(31338);
    await vi.advanceTimersByTimeAsync(2000);
    mined = true; // mined on 31337 while the wallet shows 31338
    await vi.advanceTimersByTimeAsync(120_000);
    expect(await stages()).toEqual(['requested', 'submitted']);
    switchTo(31337);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(await stages()).toEqual(['requested', 'submitted', 'confirmed']);
  });

  it('does not say dropped because the other chain does not know our hash', async () => {
    vi.useFakeTimers();
    let mined = false;
    const { wallet, switchTo, stages } = await twoChainWallet({
      31337: {
        eth_getTransactionByHash: () => minedTx,
        eth_getTransactionReceipt: () => (mined ? receipt('0x1') : null),
      },
      31338: { eth_getTransactionCount: () => '0x0' },
    });
    await wallet.provider.request({ method: 'eth_sendTransaction', params: [{ to: TO, nonce: '0x5' }] });
    await vi.advanceTimersByTimeAsync(500);
    switchTo(31338);
    mined = true;
    await vi.advanceTimersByTimeAsync(180_000);
    expect(await stages()).toEqual(['requested', 'submitted']);
    switchTo(31337);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(await stages()).toEqual(['requested', 'submitted', 'confirmed']);
  });
});

describe('signatures', () => {
  it('records requested → signed, rejected and failed, never the message or the signature', async () => {
    const rejection = { code: 4001, message: 'User denied message signature.' };
    const { sent, wallet, handle } = await connectedWallet({
      personal_sign: () => '0xsignature-secret',
      eth_signTypedData_v4: () => {
        throw rejection;
      },
      eth_sign: () => {
        throw { code: -32601, message: 'method not supported' };
      },
    });
    const message = '0x48656c6c6f2073656372657421';
    expect(await wallet.provider.request({ method: 'personal_sign', params: [message, ADDRESS] })).toBe(
      '0xsignature-secret',
    );
    await expect(
      wallet.provider.request({ method: 'eth_signTypedData_v4', params: [ADDRESS, '{"typed":"data"}'] }),
    ).rejects.toBe(rejection);
    await expect(wallet.provider.request({ method: 'eth_sign', params: [] })).rejects.toMatchObject({
      code: -32601,
    });
    await settle(30);
    await handle.flush();
    const signatures = byType(sent.events(), 'signature');
    expect(signatures.map((s) => [s.method, s.stage])).toEqual([
      ['personal_sign', 'requested'],
      ['personal_sign', 'signed'],
      ['eth_signTypedData_v4', 'requested'],
      ['eth_signTypedData_v4', 'rejected'],
    ]);
    expect(signatures[0]?.signatureId).toBe(signatures[1]?.signatureId);
    const bodies = sent.requests.map((request) => String(request.init.body)).join('');
    expect(bodies).not.toContain(message);
    expect(bodies).not.toContain('signature-secret');
    expect(bodies).not.toContain('typed');
    expect(byType(sent.events(), 'error').map((e) => e.method)).toEqual(['eth_sign']);
  });
});
