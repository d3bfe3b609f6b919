import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PolyflowHandle } from '../src/index.ts';
import { byType, cleanUp, loadSdk, settle, start, stubFetch } from './helpers.ts';

afterEach(() => {
  vi.restoreAllMocks();
  cleanUp();
});

const warnings = () => vi.spyOn(console, 'warn').mockImplementation(() => {});

describe('track and identify', () => {
  it('send a custom event and an identify with copies of their properties, in call order', async () => {
    const sent = stubFetch();
    const handle = await start();
    const props: Record<string, string | number | boolean> = { pair: 'ETH/USDC', amount: 1.5, exact: true };
    handle.track('swap_quote_shown', props);
    handle.identify('user-42', { plan: 'pro' });
    handle.track('bridge_started');
    props.pair = 'changed after the call';
    await settle();
    await handle.flush();
    const custom = byType(sent.events(), 'custom');
    expect(custom.map((event) => event.name)).toEqual(['swap_quote_shown', 'bridge_started']);
    expect(custom[0]?.props).toEqual({ pair: 'ETH/USDC', amount: 1.5, exact: true });
    expect(custom[1]?.props).toEqual({});
    const [identify] = byType(sent.events(), 'identify');
    expect(identify).toMatchObject({ appUserId: 'user-42', traits: { plan: 'pro' } });
    // The common fields come from the core, as for every other event.
    expect(identify?.sessionId).toBe(custom[0]?.sessionId);
    expect(identify?.path).toBe(location.pathname);
  });

  it('are sent by a flush called right after them, while the add-on that records them still loads', async () => {
    // A page that tracks and leaves calls flush() at once: the call was lost to the next batch, 3 s later.
    const sent = stubFetch();
    const handle = await start();
    handle.track('leaving_now', { n: 1.5 });
    await handle.flush();
    expect(byType(sent.events(), 'custom').map((event) => event.name)).toEqual(['leaving_now']);
  });

  it('drops each invalid call with one console warning, never throwing', async () => {
    const sent = stubFetch();
    const warn = warnings();
    const handle = (await start()) as PolyflowHandle & { track(...args: unknown[]): void };
    const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i]));
    const invalid: unknown[][] = [
      [''],
      ['x'.repeat(65)],
      ['line\nbreak'],
      [42],
      [undefined],
      ['ok', tooMany],
      ['ok', { nested: { a: 1 } }],
      ['ok', ['array']],
      ['ok', 'a string'],
      ['ok', { long: 'x'.repeat(257) }],
      ['ok', { n: Number.NaN }],
      ['ok', { n: Number.POSITIVE_INFINITY }],
      ['ok', { '': 1 }],
      ['ok', { ['k'.repeat(65)]: 1 }],
      ['ok', { bad: null }],
      ['ok', new Map([['a', 1]])],
      // The server refuses a whole batch holding a `__proto__` key: the SDK drops the call instead.
      ['ok', JSON.parse('{"__proto__": 1}')],
    ];
    const hostile = {
      get boom() {
        throw new Error('a getter that throws');
      },
    };
    invalid.push(['ok', hostile]);
    for (const args of invalid) expect(() => handle.track(...args)).not.toThrow();
    expect(() => handle.identify('', {})).not.toThrow();
    // The boundaries themselves are valid.
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'v'.repeat(256)]));
    handle.track('x'.repeat(64), twenty);
    handle.track('empty_value', { note: '' });
    await settle();
    await handle.flush();
    expect(warn).toHaveBeenCalledTimes(invalid.length + 1);
    expect(byType(sent.events(), 'identify')).toEqual([]);
    const custom = byType(sent.events(), 'custom');
    expect(custom.map((event) => event.name)).toEqual(['x'.repeat(64), 'empty_value']);
    expect(Object.keys(custom[0]?.props ?? {})).toHaveLength(20);
    expect(custom[1]?.props).toEqual({ note: '' });
  });

  it('drops the calls with a warning when the add-on cannot load, and the dapp sees no error', async () => {
    const sent = stubFetch();
    const warn = warnings();
    const rejections: unknown[] = [];
    const onRejection = (event: PromiseRejectionEvent) => rejections.push(event.reason);
    window.addEventListener('unhandledrejection', onRejection);
    const handle = await loadSdk({}, () => Promise.reject(new Error('blocked by the page')));
    handle.track('swap_quote_shown');
    handle.identify('user-42');
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await handle.flush();
    handle.detach();
    window.removeEventListener('unhandledrejection', onRejection);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(rejections).toEqual([]);
    expect(byType(sent.events(), 'custom')).toEqual([]);
    expect(byType(sent.events(), 'error')).toEqual([]);
  });

  it('loads the add-on once, on the first call, and not at all without one', async () => {
    stubFetch();
    const addon = await import('../src/addon.ts');
    const loadAddon = vi.fn(() => Promise.resolve(addon));
    const idle = await loadSdk({}, loadAddon);
    await settle();
    expect(loadAddon).not.toHaveBeenCalled();
    idle.detach();
    const handle = await loadSdk({}, loadAddon);
    handle.track('a');
    handle.track('b');
    handle.identify('c');
    await settle();
    expect(loadAddon).toHaveBeenCalledTimes(1);
    expect(loadAddon).toHaveBeenCalledWith('https://polyflow.example');
    handle.detach();
  });

  it('records nothing after opt-out', async () => {
    const sent = stubFetch();
    const handle = await start();
    handle.optOut();
    handle.track('swap_quote_shown');
    await settle();
    await handle.flush();
    expect(byType(sent.events(), 'custom')).toEqual([]);
  });
});
