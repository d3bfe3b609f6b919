import { afterEach, describe, expect, it } from 'vitest';
import {
  ADDRESS,
  announce,
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

describe('wallets', () => {
  it('detects the injected provider and every EIP-6963 provider, once per session', async () => {
    const sent = stubFetch();
    const injected = fakeProvider({}, { isMetaMask: true });
    const other = fakeProvider();
    inject(injected.provider);
    // MetaMask announces the same object it injects; the announced name wins over the guess.
    announce(injected.provider, 'MetaMask', 'io.metamask');
    announce(other.provider, 'Other Wallet', 'com.example.other');
    const handle = await start();
    // A dapp asking again gets the same announcements: no new detection.
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    await settle();
    await handle.flush();
    handle.detach();
    const reload = await start(); // same session after a reload: still nothing new
    await settle();
    await reload.flush();
    const detected = byType(sent.events(), 'wallet_detected');
    expect(detected.map((event) => event.wallet)).toEqual([
      { provider: 'MetaMask', rdns: 'io.metamask' },
      { provider: 'Other Wallet', rdns: 'com.example.other' },
    ]);
  });

  it('names an injected provider without EIP-6963 from its flags, and learns its chain without a prompt', async () => {
    const sent = stubFetch();
    const wallet = fakeProvider({}, { isMetaMask: true });
    inject(wallet.provider);
    const handle = await start();
    await settle();
    await handle.flush();
    expect(byType(sent.events(), 'wallet_detected')[0]?.wallet?.provider).toBe('MetaMask');
    expect(wallet.calls.map((call) => call.method).sort()).toEqual(['eth_accounts', 'eth_chainId']);
  });

  it('records connect, account switch, chain change and disconnect', async () => {
    const sent = stubFetch();
    const wallet = fakeProvider();
    inject(wallet.provider);
    const handle = await start();
    await settle();
    const accounts = await wallet.provider.request({ method: 'eth_requestAccounts' });
    expect(accounts).toEqual([ADDRESS]);
    await wallet.provider.request({ method: 'eth_accounts' }); // same address again: no new connection
    wallet.provider.fire('chainChanged', '0x1');
    wallet.provider.fire('accountsChanged', [OTHER_ADDRESS]);
    wallet.provider.fire('accountsChanged', []);
    await settle();
    await handle.flush();
    const events = sent
      .events()
      .filter((event) => event.type !== 'page_view' && event.type !== 'wallet_detected');
    expect(events.map((event) => [event.type, event.wallet?.address, event.wallet?.chainId])).toEqual([
      ['wallet_connected', ADDRESS.toLowerCase(), 31337],
      ['chain_changed', ADDRESS.toLowerCase(), 1],
      ['wallet_connected', OTHER_ADDRESS, 1],
      ['wallet_disconnected', OTHER_ADDRESS, 1],
    ]);
    // Events without a wallet of their own carry the active wallet's context.
    history.pushState(null, '', '/after');
    wallet.provider.fire('accountsChanged', [ADDRESS]);
    history.pushState(null, '', '/again');
    await handle.flush();
    expect(byType(sent.events(), 'page_view').at(-1)?.wallet).toMatchObject({
      address: ADDRESS.toLowerCase(),
    });
  });

  it('reports an existing connection found with eth_accounts once per session, and a disconnect event', async () => {
    const sent = stubFetch();
    const wallet = fakeProvider({ eth_accounts: () => [ADDRESS] });
    inject(wallet.provider);
    const first = await start();
    await settle();
    await first.flush();
    first.detach();
    const second = await start();
    await settle();
    wallet.provider.fire('disconnect', { code: 4900 });
    await second.flush();
    expect(byType(sent.events(), 'wallet_connected')).toHaveLength(1);
    expect(byType(sent.events(), 'wallet_disconnected')).toHaveLength(1);
  });

  it('records a call once when an announced provider forwards it to window.ethereum.request', async () => {
    const sent = stubFetch();
    const injected = fakeProvider({ eth_sendTransaction: () => TX_HASH, personal_sign: () => '0x5ig' });
    inject(injected.provider);
    // The wallet's EIP-6963 object delegates to the injected provider at call time (both wrapped by the SDK).
    const facade = {
      request: (args: { method: string; params?: unknown[] }) =>
        (window as unknown as { ethereum: typeof injected.provider }).ethereum.request(args),
    };
    announce(facade, 'Facade Wallet', 'com.facade');
    const handle = await start();
    await settle();
    await facade.request({ method: 'eth_requestAccounts' });
    await facade.request({ method: 'eth_sendTransaction', params: [{ to: OTHER_ADDRESS, value: '0x1' }] });
    await facade.request({ method: 'personal_sign', params: ['0x68', ADDRESS] });
    await settle(30);
    await handle.flush();
    const events = sent.events();
    const txs = byType(events, 'tx');
    expect(new Set(txs.map((tx) => tx.txId)).size).toBe(1);
    expect(txs.filter((tx) => tx.stage === 'requested').map((tx) => tx.wallet?.provider)).toEqual([
      'Facade Wallet',
    ]);
    expect(byType(events, 'signature').map((s) => [s.stage, s.wallet?.provider])).toEqual([
      ['requested', 'Facade Wallet'],
      ['signed', 'Facade Wallet'],
    ]);
    expect(byType(events, 'wallet_connected').map((e) => e.wallet?.provider)).toEqual(['Facade Wallet']);
  });

  it('keeps the wallet the user connected active when another installed wallet changes its account', async () => {
    const sent = stubFetch();
    const rabby = fakeProvider();
    // Connected to this page earlier: the SDK's probe finds its account.
    const coinbase = fakeProvider({ eth_accounts: () => [OTHER_ADDRESS] });
    announce(rabby.provider, 'Rabby Wallet', 'io.rabby');
    announce(coinbase.provider, 'Coinbase Wallet', 'com.coinbase.wallet');
    const handle = await start();
    await settle();
    await rabby.provider.request({ method: 'eth_requestAccounts' });
    const CHANGED = `0x${'34'.repeat(20)}`;
    coinbase.provider.fire('accountsChanged', [CHANGED]);
    history.pushState(null, '', '/next');
    await settle();
    await handle.flush();
    const events = sent.events();
    expect(byType(events, 'page_view').at(-1)?.wallet).toMatchObject({
      provider: 'Rabby Wallet',
      address: ADDRESS.toLowerCase(),
    });
    // The other wallet's change is still its own event.
    expect(byType(events, 'wallet_connected').at(-1)?.wallet).toMatchObject({
      provider: 'Coinbase Wallet',
      address: CHANGED,
    });
  });

  it('restores the provider and removes its listeners on detach', async () => {
    stubFetch();
    const wallet = fakeProvider();
    inject(wallet.provider);
    const handle = await start();
    expect(wallet.provider.request).not.toBe(wallet.original);
    handle.detach();
    expect(wallet.provider.request).toBe(wallet.original);
    expect([...wallet.listeners.values()].every((set) => set.size === 0)).toBe(true);
  });
});
