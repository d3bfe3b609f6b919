import { type Batch, BatchSchema, type IngestEvent } from '@polyflow/contracts/events';
import { vi } from 'vitest';
import type { AttachOptions, PolyflowHandle } from '../src/index.ts';

export const ADDRESS = `0x${'Ab'.repeat(20)}`;
export const OTHER_ADDRESS = `0x${'12'.repeat(20)}`;
export const TX_HASH = `0x${'c'.repeat(64)}`;
export const API_KEY = 'test-api-key';

type Handler = (params: unknown[]) => unknown;

/** Common answers of an EIP-1193 wallet on a local chain (31337). */
export const defaultHandlers = (): Record<string, Handler> => {
  let accounts: string[] = [];
  return {
    eth_chainId: () => '0x7a69',
    eth_accounts: () => accounts,
    eth_requestAccounts: () => {
      accounts = [ADDRESS];
      return accounts;
    },
    eth_getBalance: () => '0xde0b6b3a7640000',
    eth_getTransactionCount: () => '0x5',
  };
};

/**
 * A fake EIP-1193 provider: the wallet is a boundary we don't own (the e2e suite uses a real anvil chain).
 * `request` is the provider's own method, so the tests can check what the SDK's wrapper passes to it.
 */
export function fakeProvider(overrides: Record<string, Handler> = {}, flags: Record<string, unknown> = {}) {
  const handlers = { ...defaultHandlers(), ...overrides };
  const listeners = new Map<string, Set<(value: unknown) => void>>();
  const calls: { method: string; params?: unknown; self: unknown }[] = [];
  const provider = {
    ...flags,
    request(this: unknown, args: { method: string; params?: unknown[] }): Promise<unknown> {
      calls.push({ ...args, self: this });
      const handler = handlers[args.method];
      return new Promise((resolve) => resolve(handler ? handler(args.params ?? []) : null));
    },
    on(event: string, listener: (value: unknown) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)?.add(listener);
    },
    removeListener(event: string, listener: (value: unknown) => void) {
      listeners.get(event)?.delete(listener);
    },
    fire(event: string, value: unknown) {
      for (const listener of listeners.get(event) ?? []) listener(value);
    },
  };
  return { provider, handlers, calls, original: provider.request, listeners };
}

/** A stubbed `fetch` that records every request and answers with `status` (or what `answer` says). */
export function stubFetch(answer: (call: number) => number | Error = () => 202) {
  const requests: { url: string; init: RequestInit; batch: Batch }[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    // Every body the SDK sends must be accepted by the server's own schema.
    const batch = BatchSchema.parse(JSON.parse(init.body as string));
    requests.push({ url, init, batch });
    const result = answer(requests.length);
    if (result instanceof Error) throw result;
    return new Response(null, { status: result });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    requests,
    events: (): IngestEvent[] => requests.flatMap((request) => request.batch.events),
  };
}

/** Loads a fresh copy of the SDK (as a new page load would) and attaches it. */
export async function loadSdk(
  options: AttachOptions = {},
  loadAddon?: (host: string) => Promise<unknown>,
): Promise<PolyflowHandle> {
  vi.resetModules();
  // The add-on (ADR 068), already loaded, so its promise settles within `settle()`; the built bundles
  // import it from a file or URL instead (e2e/tests/custom-events covers that path).
  const addon = await import('../src/addon.ts');
  vi.doMock('../src/load-addon.ts', () => ({ loadAddon: loadAddon ?? (() => Promise.resolve(addon)) }));
  const { attach } = await import('../src/index.ts');
  return attach(API_KEY, { host: 'https://polyflow.example', ...options });
}

/** Lets pending promise callbacks (the SDK's wallet calls) run. */
export const settle = async (rounds = 10) => {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => queueMicrotask(resolve));
};

export const byType = <T extends IngestEvent['type']>(events: IngestEvent[], type: T) =>
  events.filter((event): event is Extract<IngestEvent, { type: T }> => event.type === type);

let removals: (() => void)[] = [];
/** Makes `provider` answer EIP-6963 discovery, as a wallet extension does, until `cleanUp`. */
export function announce(provider: unknown, name: string, rdns: string) {
  const answer = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: { info: { uuid: rdns, name, icon: '', rdns }, provider },
      }),
    );
  window.addEventListener('eip6963:requestProvider', answer);
  removals.push(() => window.removeEventListener('eip6963:requestProvider', answer));
}

/** Installs `provider` as `window.ethereum`. */
export function inject(provider: unknown) {
  (window as unknown as { ethereum: unknown }).ethereum = provider;
}

let handles: PolyflowHandle[] = [];
/** Attaches and remembers the handle so `cleanUp` can detach it. */
export async function start(options: AttachOptions = {}) {
  const handle = await loadSdk(options);
  handles.push(handle);
  return handle;
}

export function cleanUp() {
  for (const handle of handles) handle.detach();
  handles = [];
  for (const remove of removals) remove();
  removals = [];
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
  delete (window as unknown as { ethereum?: unknown }).ethereum;
  History.prototype.replaceState.call(history, null, '', '/');
}
