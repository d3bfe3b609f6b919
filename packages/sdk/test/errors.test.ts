import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADDRESS, byType, cleanUp, fakeProvider, inject, settle, start, stubFetch } from './helpers.ts';

afterEach(cleanUp);

async function withConnectedWallet(overrides: Parameters<typeof fakeProvider>[0] = {}) {
  const sent = stubFetch();
  const wallet = fakeProvider(overrides, { isMetaMask: true });
  inject(wallet.provider);
  const handle = await start();
  await settle();
  await wallet.provider.request({ method: 'eth_requestAccounts' });
  return { sent, wallet, handle };
}

const rejectionEvent = (reason: unknown) => Object.assign(new Event('unhandledrejection'), { reason });

describe('frontend errors', () => {
  it('records window errors and unhandled rejections with the wallet state, beside the page handlers', async () => {
    const pageHandler = vi.fn();
    window.onerror = pageHandler;
    const { sent, handle } = await withConnectedWallet();
    expect(window.onerror).toBe(pageHandler); // never replaced
    const error = new Error('Cannot read properties of undefined');
    window.dispatchEvent(new ErrorEvent('error', { message: error.message, error }));
    window.dispatchEvent(rejectionEvent(new RangeError('quote expired')));
    window.dispatchEvent(rejectionEvent('plain string reason'));
    await settle(30);
    await handle.flush();
    const errors = byType(sent.events(), 'error');
    expect(errors.map((e) => [e.source, e.message])).toEqual([
      ['window', 'Cannot read properties of undefined'],
      ['promise', 'quote expired'],
      ['promise', 'plain string reason'],
    ]);
    expect(errors[0]?.stack).toContain('Cannot read properties of undefined');
    expect(errors[0]?.walletState).toEqual({
      gasBalance: '1000000000000000000',
      nonce: '5',
      chainId: 31337,
      provider: 'MetaMask',
    });
    expect(errors[0]?.wallet?.address).toBe(ADDRESS.toLowerCase());
    window.onerror = null;
  });

  it('records an error without wallet state when there is no wallet', async () => {
    const sent = stubFetch();
    const handle = await start();
    window.dispatchEvent(new ErrorEvent('error', { message: 'boom' }));
    await settle();
    await handle.flush();
    const [error] = byType(sent.events(), 'error');
    expect(error).toMatchObject({ source: 'window', message: 'boom' });
    expect(error?.walletState).toBeUndefined();
  });

  it('still reports when the wallet does not answer the state calls (timeout)', async () => {
    vi.useFakeTimers();
    const { sent, handle } = await withConnectedWallet({
      eth_getBalance: () => new Promise(() => {}),
      eth_getTransactionCount: () => new Promise(() => {}),
    });
    window.dispatchEvent(new ErrorEvent('error', { message: 'stuck wallet' }));
    await vi.advanceTimersByTimeAsync(6000);
    await handle.flush();
    const [error] = byType(sent.events(), 'error');
    expect(error?.walletState).toEqual({ chainId: 31337, provider: 'MetaMask' });
  });

  it('cuts huge messages and stacks to what the server accepts', async () => {
    const sent = stubFetch();
    const handle = await start();
    const error = new Error('x'.repeat(100_000));
    error.stack = 'y'.repeat(100_000);
    window.dispatchEvent(new ErrorEvent('error', { message: error.message, error }));
    await settle();
    await handle.flush();
    const [event] = byType(sent.events(), 'error');
    expect(event?.message.length).toBe(2000);
    expect(event?.stack?.length).toBe(8000);
  });
});
