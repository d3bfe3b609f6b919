import type { Core, EventBody, Wallet } from './types.ts';
import { code, dec, errorText, listen, type Rec, safe, text } from './util.ts';

type ErrorFields = Pick<
  Extract<EventBody, { type: 'error' }>,
  'source' | 'message' | 'stack' | 'code' | 'method'
>;

/**
 * Frontend errors (`error` and `unhandledrejection` listeners, added beside the page's own handlers, never
 * replacing `window.onerror`) and failed wallet calls, each with the wallet's state at that moment.
 */
export function watchErrors(core: Core) {
  // Never rejects: the wallet calls resolve (see `Wallet.q`) and `emit` catches everything.
  const report = async (fields: ErrorFields, w = core.active) => {
    let walletState: Rec | undefined;
    if (w) {
      // Through the original request with a timeout: a broken wallet must not hold the report forever.
      const [balance, nonce] = w.a
        ? await Promise.all(['eth_getBalance', 'eth_getTransactionCount'].map((m) => w.q(m, [w.a, 'latest'])))
        : [];
      walletState = { gasBalance: dec(balance), nonce: dec(nonce), chainId: w.c, provider: w.n };
    }
    core.emit({ type: 'error', ...fields, walletState }, w);
  };

  const stackOf = (error: unknown) => text((error as Rec | null)?.stack, 8000) || undefined;

  const onError = safe((event: ErrorEvent) => {
    report({ source: 'window', message: text(event.message, 2000), stack: stackOf(event.error) });
  });
  const onRejection = safe((event: PromiseRejectionEvent) => {
    report({ source: 'promise', message: errorText(event.reason), stack: stackOf(event.reason) });
  });
  listen(core.undo, 'error', onError);
  listen(core.undo, 'unhandledrejection', onRejection);

  /** A wallet call failed (not a user rejection): reported with its RPC code and method. */
  return (w: Wallet, method: string, error: unknown) => {
    report({ source: 'wallet', message: errorText(error), code: code(error), method }, w);
  };
}
