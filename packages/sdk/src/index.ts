/**
 * The Polyflow browser SDK (`@polyflow/sdk`): {@link attach} records a dapp's page views, wallet
 * connections, transactions, signatures and frontend errors and sends them to a Polyflow server.
 *
 * @packageDocumentation
 */
import { watchErrors } from './errors.ts';
import { loadAddon } from './load-addon.ts';
import { watchPages } from './pages.ts';
import { touchSession, userId } from './session.ts';
import { createTransport } from './transport.ts';
import { type Core, walletContext } from './types.ts';
import { isLabel, listen, load, noop, now, safe, store, text, uid } from './util.ts';
import { watchWallets } from './wallets.ts';

/** Options of {@link attach}. */
export interface AttachOptions {
  /** Origin of the Polyflow server; events go to `${host}/api/v1/events`. Default: the page's own origin. */
  host?: string;
  /** Record nothing for this page load (e.g. before consent). The visitor's own opt-out is {@link PolyflowHandle.optOut}. */
  optOut?: boolean;
  /** How long events may wait in the queue before they are sent. Default 3000 ms. */
  flushIntervalMs?: number;
  /** A batch is sent as soon as this many events are queued. Default 20, at most 100. */
  maxBatchSize?: number;
  /** Logs every event and failed send to the console. */
  debug?: boolean;
  /**
   * The dapp's release (a version or a commit: 1–64 characters without control characters), sent with every
   * batch; incidents show the releases they occurred in. Another value is left out (`debug` logs it).
   */
  release?: string;
}

/**
 * Properties of {@link PolyflowHandle.track} or traits of {@link PolyflowHandle.identify}: at most 20 keys of
 * 1–64 characters (no control characters), each value a string of at most 256 characters, a finite number or
 * a boolean.
 */
export type Properties = { [key: string]: string | number | boolean };

/** What {@link attach} returns. */
export interface PolyflowHandle {
  /** Sends every queued event now; resolves when the server answered (never rejects). */
  flush(): Promise<void>;
  /** Stops recording for this visitor, in this and later page loads (a localStorage flag), and drops unsent events. */
  optOut(): void;
  /** Undoes {@link PolyflowHandle.optOut} and the `optOut` option. */
  optIn(): void;
  /** Removes every listener and wrapper the SDK installed, after sending what is queued. */
  detach(): void;
  /**
   * Records a custom event, e.g. `track('swap_quote_shown', { pair: 'ETH/USDC' })`: a name of 1–64 characters
   * and at most 20 {@link Properties}. An invalid call is dropped with one console warning; never throws.
   */
  track(name: string, props?: Properties): void;
  /**
   * Links this visitor to the dapp's own user id (1–64 characters) from now on, with optional traits; an
   * invalid call is dropped with one console warning; never throws.
   */
  identify(appUserId: string, traits?: Properties): void;
}

/**
 * `window.Polyflow`, set by the script-tag build (`/sdk.js`): `attach`, and when the tag had `data-api-key`
 * the methods of the handle it attached (`Polyflow.track(…)`).
 */
export type PolyflowGlobal = { attach: typeof attach } & Partial<PolyflowHandle>;

declare global {
  interface Window {
    /** Set by the script-tag build; see {@link PolyflowGlobal}. */
    Polyflow?: PolyflowGlobal;
  }
}

/** localStorage flag set by `optOut()`. */
export const OPT_OUT_KEY = 'pf_optout';

const inert: PolyflowHandle = {
  flush: async () => {},
  optOut: noop,
  optIn: noop,
  detach: noop,
  track: noop,
  identify: noop,
};
let attached: PolyflowHandle | undefined;

function start(apiKey: string, options: AttachOptions): PolyflowHandle {
  const log = options.debug ? console.debug.bind(console, '[polyflow]') : noop;
  let optedOut = !!options.optOut;
  const isOptedOut = () => optedOut || load(OPT_OUT_KEY) === '1';
  const host = (options.host || location.origin).replace(/\/+$/, '');
  const transport = createTransport(
    `${host}/api/v1/events`,
    apiKey,
    // Any other value would make the server refuse every batch: it is left out (the debug log says so).
    isLabel(options.release) ? options.release : log('release', options.release),
    Math.min(options.maxBatchSize || 20, 100),
    options.flushIntervalMs || 3000,
    log,
  );
  if (isOptedOut()) transport.clear();

  let redetect = noop;
  let addon: ReturnType<Core['addon']> | undefined;
  const core: Core = {
    undo: [],
    addon: () => (addon ||= loadAddon(host).catch(noop) as ReturnType<Core['addon']>),
    emit: safe((body, w = core.active) => {
      if (isOptedOut()) return;
      const session = touchSession(redetect);
      const event = {
        id: uid(),
        ts: now(),
        userId: userId(),
        sessionId: session.i,
        path: text(location.pathname, 2048),
        referrer: text(document.referrer, 2048) || undefined,
        utm: session.u,
        wallet: walletContext(w),
        ...body,
      };
      log(event.type, event);
      transport.push(event);
    }),
  };

  watchPages(core);
  redetect = watchWallets(core, watchErrors(core));
  // Page hide is the last moment a page is sure to run code (bfcache, mobile tab switch, close).
  listen(core.undo, 'pagehide', transport.flush);
  listen(
    core.undo,
    'visibilitychange',
    () => document.visibilityState === 'hidden' && transport.flush(),
    document,
  );

  // track/identify live in the add-on (ADR 068); calls made while it loads wait for it, in order, with a
  // copy of a plain object taken now (the dapp may change it meanwhile; anything else the add-on refuses).
  // If it cannot load, each call is dropped with a warning.
  const later = (type: 'custom' | 'identify') => (value: unknown, props?: Properties) => {
    let copy = props;
    try {
      copy = props?.constructor === Object ? { ...props } : props;
    } catch {}
    core
      .addon()
      .then((addon) =>
        addon ? addon.record(core.emit, type, value, copy) : console.warn('[polyflow] dropped', value),
      );
  };

  return {
    // After the track/identify calls still waiting for the add-on: they were queued before this flush.
    flush: async () => {
      await addon;
      await transport.flush();
    },
    track: later('custom'),
    identify: later('identify'),
    optOut() {
      optedOut = true;
      store(OPT_OUT_KEY, '1');
      transport.clear();
    },
    optIn() {
      optedOut = false;
      store(OPT_OUT_KEY);
    },
    detach() {
      attached = undefined;
      for (const undo of core.undo) safe(undo)();
      transport.flush().finally(transport.stop);
    },
  };
}

/**
 * Starts recording for the project whose API key is `apiKey`: page views, wallets, transactions, signatures
 * and errors, sent in batches to the Polyflow server. Safe to call anywhere: on the server (no `window`), or a
 * second time (returns the first handle), it does nothing; it never throws.
 *
 * @param apiKey - The project's API key from the Polyflow console; the page's domain must be on the project's whitelist.
 * @param options - Where to send events and how; see {@link AttachOptions}.
 * @returns A handle to flush, opt out or in, and detach; an inert one when nothing can be recorded.
 *
 * @example
 * import { attach } from '@polyflow/sdk';
 * const polyflow = attach('YOUR_API_KEY', { host: 'https://polyflow.example.com' });
 */
export function attach(apiKey: string, options: AttachOptions = {}): PolyflowHandle {
  try {
    if (typeof window === 'undefined' || !apiKey) return inert;
    attached ||= start(String(apiKey), options);
    return attached;
  } catch {
    return inert;
  }
}
