import { saveSession, touchSession } from './session.ts';
import { type CallHooks, trackBatch, trackSignature, trackTransaction } from './transactions.ts';
import type { Core, Eip1193Provider, Wallet } from './types.ts';
import { code, hex, listen, noop, num, type Rec, safe, sleep, text } from './util.ts';

/** A wallet call that failed for another reason than the user saying no. */
export type WalletFailure = (w: Wallet, method: string, error: unknown) => void;

/** How long the SDK waits for its own wallet calls (receipts, balances) before giving up on one. */
const CALL_TIMEOUT_MS = 5000;

interface Eip6963Announcement {
  info?: { name?: string; rdns?: string };
  provider?: Eip1193Provider;
}

const keyOf = (w: Wallet) => w.r || w.n;

/**
 * Finds wallets (the injected `window.ethereum` and every EIP-6963 announced provider), wraps their `request`
 * and listens to their events. The wrapped `request` calls the original with the same `this` and arguments,
 * and settles with the same value or the same error object. Returns what to call when a new session starts.
 */
export function watchWallets(core: Core, onFailure: WalletFailure): () => void {
  const wallets: Wallet[] = [];
  // Above 0 while a wallet's own request runs (a wrapped or probing call): a provider that forwards to another
  // wrapped provider (an EIP-6963 object calling window.ethereum.request) is recorded once, as the outer one.
  let depth = 0;
  const { undo } = core;

  const detect = (w: Wallet) => {
    const session = touchSession();
    if (session.d.includes(keyOf(w))) return;
    session.d.push(keyOf(w));
    saveSession(session);
    core.emit({ type: 'wallet_detected' }, w);
  };

  // Connected = the wallet's first account changed to a new address; disconnected = no account any more.
  const accounts = (w: Wallet, list?: unknown, user?: boolean) => {
    const address = hex((list as Rec | null)?.[0], 42);
    const session = touchSession();
    const before = session.c[keyOf(w)];
    w.a = address;
    // Only a dapp's call makes it the active wallet; its own events (and the SDK's probe) only while there is
    // none: another installed wallet changing its account must not take over the events of the one in use.
    if (address && (user || !core.active)) core.active = w;
    if (address === before) return;
    // Undefined (disconnected) is left out when the session is stored.
    session.c[keyOf(w)] = address;
    saveSession(session);
    core.emit({ type: address ? 'wallet_connected' : 'wallet_disconnected' }, { ...w, a: address ?? before });
  };

  const chain = (w: Wallet, value: unknown, changed?: boolean) => {
    const chainId = num(value);
    if (!chainId || chainId === w.c) return;
    w.c = chainId;
    if (changed) core.emit({ type: 'chain_changed' }, w);
  };

  const hooksFor = (w: Wallet, method: unknown, params: unknown): CallHooks => {
    const call =
      method === 'eth_sendTransaction' || method === 'wallet_sendTransaction'
        ? trackTransaction(core, w, params)
        : method === 'wallet_sendCalls'
          ? trackBatch(core, w, params)
          : method === 'personal_sign' || method === 'eth_signTypedData_v4'
            ? trackSignature(core, w, method)
            : undefined;
    // Only what the user does makes a wallet the active one: libraries probe every wallet they find.
    if (call) core.active = w;
    return {
      ok: safe((value: unknown) => {
        if (method === 'eth_requestAccounts' || method === 'eth_accounts') accounts(w, value, true);
        if (method === 'eth_chainId') chain(w, value);
        call?.ok(value);
      }),
      fail: safe((error: unknown) => {
        call?.fail(error);
        if (code(error) === 4001) return;
        // ethers (and any dapp that estimates first) never asks the wallet to send a call that fails its
        // gas estimation: that is the user's transaction failing before submission.
        if (method === 'eth_estimateGas') trackTransaction(core, w, params).fail(error);
        onFailure(w, text(method), error);
      }),
    };
  };

  const add = safe((provider: unknown, name?: string, rdns?: string) => {
    const p = provider as Eip1193Provider;
    const original = p?.request;
    if (typeof original !== 'function') return;
    const seen = wallets.find((w) => w.p === p);
    if (seen) {
      // The injected provider announced itself later through EIP-6963: keep its real name from now on.
      if (rdns && !seen.r) {
        seen.n = text(name);
        seen.r = text(rdns);
        const session = touchSession();
        session.d.push(rdns);
        saveSession(session);
      }
      return;
    }
    const call = (self: unknown, args: unknown[]) => {
      depth++;
      try {
        return original.apply(self, args as [{ method: string }]);
      } finally {
        depth--;
      }
    };
    const w: Wallet = {
      p,
      q: (method, params) =>
        Promise.race([
          new Promise((resolve) => resolve(call(p, [{ method, params }]))).catch(noop),
          sleep(CALL_TIMEOUT_MS),
        ]),
      // Wallets that announce through EIP-6963 get their own name; this guess is for the others.
      n: text(name || ((p as unknown as Rec).isMetaMask ? 'MetaMask' : 'Injected')),
      r: rdns && text(rdns),
    };
    wallets.push(w);
    const wrapped = function (this: unknown, ...args: unknown[]) {
      let hooks: CallHooks | undefined;
      try {
        const request = args[0] as Rec | undefined;
        if (!depth) hooks = hooksFor(w, request?.method, request?.params);
      } catch {}
      let result: unknown;
      try {
        result = call(this, args);
      } catch (error) {
        hooks?.fail(error);
        throw error;
      }
      if (!hooks || typeof (result as Rec | null)?.then !== 'function') return result;
      // A derived promise rather than a side handler: a rejection the dapp ignores stays unhandled, as before.
      return (result as Promise<unknown>).then(
        (value) => {
          hooks?.ok(value);
          return value;
        },
        (error) => {
          hooks?.fail(error);
          throw error;
        },
      );
    };
    try {
      p.request = wrapped;
      undo.push(() => {
        if (p.request === wrapped) p.request = original;
      });
    } catch {}
    const on = (event: string, listener: (value: unknown) => void) => {
      const guarded = safe(listener);
      try {
        p.on?.(event, guarded);
        undo.push(() => p.removeListener?.(event, guarded));
      } catch {}
    };
    on('accountsChanged', (value) => accounts(w, value));
    on('chainChanged', (value) => chain(w, value, true));
    on('disconnect', () => accounts(w));
    detect(w);
    // Neither call prompts the user (EIP-1102); they tell the chain and an existing connection.
    w.q('eth_chainId').then((value) => chain(w, value));
    // Unless the dapp's own calls or events told us about the accounts in the meantime (stale answer).
    w.q('eth_accounts').then((value) => w.a || (value && accounts(w, value)));
  });

  const onAnnounce = safe((event: CustomEvent<Eip6963Announcement>) => {
    const { provider, info } = event.detail || {};
    add(provider, info?.name, info?.rdns);
  });
  const addInjected = () => add((window as unknown as Rec).ethereum);

  listen(undo, 'eip6963:announceProvider', onAnnounce);
  // Wallets answer the request synchronously, so announced names win over guesses for window.ethereum.
  dispatchEvent(new Event('eip6963:requestProvider'));
  addInjected();
  // Some wallets inject after the page scripts ran.
  listen(undo, 'ethereum#initialized', addInjected);

  /** A new session started: report the wallets again, once each. */
  return () => wallets.forEach(safe(detect));
}
