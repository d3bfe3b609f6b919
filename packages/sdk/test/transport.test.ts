import { MAX_BATCH_BYTES } from '@polyflow/contracts/events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanUp, settle, start, stubFetch } from './helpers.ts';

afterEach(cleanUp);

const navigate = (count: number, from = 0) => {
  for (let i = from; i < from + count; i++) history.pushState(null, '', `/page-${i}`);
};
const bigError = (i: number) => {
  const error = new Error(`${i}:${'é'.repeat(1990)}`);
  error.stack = 'ü'.repeat(8000);
  window.dispatchEvent(new ErrorEvent('error', { message: error.message, error }));
};

describe('transport', () => {
  it('sends a batch at 20 events, else after the flush interval, without preflight-triggering options', async () => {
    vi.useFakeTimers();
    const sent = stubFetch();
    await start();
    navigate(18); // + the landing page view = 19
    await settle();
    expect(sent.requests).toHaveLength(0);
    navigate(1, 18);
    await settle();
    expect(sent.requests).toHaveLength(1);
    expect(sent.requests[0]?.batch.events).toHaveLength(20);
    navigate(1, 19);
    await vi.advanceTimersByTimeAsync(2900);
    expect(sent.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(sent.requests).toHaveLength(2);
    const { init, batch } = sent.requests[0] ?? {};
    expect(init).toEqual({ method: 'POST', body: expect.any(String), keepalive: true, credentials: 'omit' });
    expect(init?.headers).toBeUndefined(); // a string body goes as text/plain: a simple request
    expect(batch?.apiKey).toBe('test-api-key');
    expect(batch?.sdkVersion).toBe('2.0.0');
  });

  it('sends the release option with every batch', async () => {
    const sent = stubFetch();
    await (await start({ release: 'v1.2.3+abc' })).flush();
    expect(sent.requests[0]?.batch.release).toBe('v1.2.3+abc');
  });

  it.each([
    ['too long', 'r'.repeat(65)],
    ['with a control character', 'line\nbreak'],
    ['empty', ''],
    ['not text', 42],
  ])('leaves out a release the server would refuse (%s) and still sends', async (_, release) => {
    const sent = stubFetch();
    await (await start({ release: release as string })).flush();
    expect(sent.requests).toHaveLength(1);
    expect(sent.requests[0]?.batch).not.toHaveProperty('release');
  });

  it('sends the first batch (the landing page view) at once, and later events after the interval', async () => {
    vi.useFakeTimers();
    const sent = stubFetch();
    await start();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.requests).toHaveLength(1);
    expect(sent.requests[0]?.batch.events.map((e) => e.type)).toEqual(['page_view']);
    navigate(2);
    await vi.advanceTimersByTimeAsync(2900);
    expect(sent.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(sent.requests).toHaveLength(2);
    expect(sent.requests[1]?.batch.events).toHaveLength(2);
  });

  it('flushes on pagehide and when the page is hidden, with keepalive and every body under 64 KB', async () => {
    const sent = stubFetch();
    await start({ maxBatchSize: 100, flushIntervalMs: 60_000 });
    for (let i = 0; i < 20; i++) bigError(i);
    await settle();
    expect(sent.requests).toHaveLength(0);
    window.dispatchEvent(new Event('pagehide'));
    await settle();
    expect(sent.requests.length).toBeGreaterThan(1);
    for (const { init } of sent.requests) {
      expect(init.keepalive).toBe(true);
      expect(new TextEncoder().encode(init.body as string).length).toBeLessThan(MAX_BATCH_BYTES);
    }
    expect(sent.events().filter((e) => e.type === 'error')).toHaveLength(20);
    history.pushState(null, '', '/later');
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    await settle();
    expect(sent.events().at(-1)?.path).toBe('/later');
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  });

  it('retries network errors, 5xx and 429 with growing back-off, then delivers everything once', async () => {
    vi.useFakeTimers();
    const answers = [new TypeError('Failed to fetch'), 503, 429, 202];
    const sent = stubFetch((n) => answers[n - 1] ?? 202);
    const handle = await start();
    await handle.flush(); // network error
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = sent.requests.length;
      const t0 = Date.now();
      while (sent.requests.length === before) await vi.advanceTimersByTimeAsync(100);
      times.push(Date.now() - t0);
    }
    expect(times[0]).toBeGreaterThanOrEqual(1900); // 2 s
    expect(times[1]).toBeGreaterThanOrEqual(3900); // 4 s
    expect(times[2]).toBeGreaterThanOrEqual(7900); // 8 s
    const ids = sent.requests.map((r) => r.batch.events.map((e) => e.id).join());
    expect(new Set(ids).size).toBe(1); // the same events, with the same ids, each time
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sent.requests).toHaveLength(4);
    expect(
      localStorage.getItem(Object.keys(localStorage).find((k) => k.startsWith('pf_q:')) ?? ''),
    ).toBeNull();
  });

  it('drops a batch the server refuses with 400 (no retry), and keeps going', async () => {
    vi.useFakeTimers();
    const sent = stubFetch((n) => (n === 1 ? 400 : 202));
    const handle = await start();
    await handle.flush();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sent.requests).toHaveLength(1);
    history.pushState(null, '', '/next');
    await handle.flush();
    expect(sent.requests).toHaveLength(2);
    expect(sent.requests[1]?.batch.events.map((e) => e.path)).toEqual(['/next']);
  });

  it('stops retrying after 8 failures in a page, and the next page load sends the stored events', async () => {
    vi.useFakeTimers();
    const down = stubFetch(() => new TypeError('Failed to fetch'));
    const handle = await start();
    await handle.flush();
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    expect(down.requests).toHaveLength(8);
    const lost = down.requests[0]?.batch.events[0]?.id;
    handle.detach();
    const up = stubFetch();
    const next = await start(); // a new page load adopts the stored queue
    await next.flush();
    const ids = up.events().map((e) => e.id);
    expect(ids).toContain(lost);
    expect(up.events().filter((e) => e.id === lost)).toHaveLength(1);
  });

  it('never throws into the page when fetch rejects or the key is wrong', async () => {
    const failing = stubFetch(() => new TypeError('Failed to fetch'));
    const handle = await start();
    await expect(handle.flush()).resolves.toBeUndefined();
    expect(failing.requests).toHaveLength(1);
    const refused = stubFetch(() => 401);
    history.pushState(null, '', '/still-working');
    await expect(handle.flush()).resolves.toBeUndefined();
    expect(location.pathname).toBe('/still-working');
    expect(refused.requests.length).toBeGreaterThan(0);
  });
});

describe('opt-out', () => {
  it('records nothing after optOut(), remembers it across page loads, and records again after optIn()', async () => {
    const sent = stubFetch();
    const handle = await start();
    handle.optOut();
    history.pushState(null, '', '/private');
    await handle.flush();
    expect(sent.requests).toHaveLength(0); // the landing page view, queued before, is dropped too
    expect(localStorage.getItem('pf_optout')).toBe('1');
    handle.detach();
    const reload = await start();
    await reload.flush();
    expect(sent.requests).toHaveLength(0);
    reload.optIn();
    history.pushState(null, '', '/public');
    await reload.flush();
    expect(sent.events().map((e) => e.path)).toEqual(['/public']);
  });

  it('records nothing with the optOut option and creates no user id', async () => {
    const sent = stubFetch();
    const handle = await start({ optOut: true });
    history.pushState(null, '', '/x');
    await handle.flush();
    expect(sent.requests).toHaveLength(0);
    expect(localStorage.getItem('pf_uid')).toBeNull();
  });
});
