import { afterEach, describe, expect, it, vi } from 'vitest';
import { byType, cleanUp, start, stubFetch } from './helpers.ts';

afterEach(cleanUp);

describe('page views', () => {
  it('records the landing page and single-page-app route changes, without breaking history', async () => {
    const sent = stubFetch();
    document.title = 'Swap';
    const handle = await start();
    expect(history.pushState('state', '', '/pools?x=1')).toBeUndefined();
    expect(location.pathname).toBe('/pools');
    expect(history.state).toBe('state');
    history.replaceState(null, '', '/pools?x=2'); // same path: not a new page
    // A back navigation: the browser changes the URL itself, then fires popstate.
    History.prototype.pushState.call(history, null, '', '/back');
    window.dispatchEvent(new Event('popstate'));
    await handle.flush();
    const views = byType(sent.events(), 'page_view');
    expect(views.map((view) => view.path)).toEqual(['/', '/pools', '/back']);
    expect(views[0]?.title).toBe('Swap');
    for (const view of views) {
      expect(view.id).toMatch(/^[a-z0-9]{8,64}$/);
      expect(view.userId).toBe(views[0]?.userId);
      expect(view.sessionId).toBe(views[0]?.sessionId);
      expect(Math.abs(view.ts - Date.now())).toBeLessThan(5000);
    }
    expect(new Set(views.map((view) => view.id)).size).toBe(3);
    expect(sent.requests[0]?.url).toBe('https://polyflow.example/api/v1/events');
  });

  it('keeps the landing UTM parameters for the session and starts a new session after 30 idle minutes', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T10:00:00Z') });
    const sent = stubFetch();
    History.prototype.replaceState.call(
      history,
      null,
      '',
      '/?utm_source=twitter&utm_medium=social&utm_campaign=launch&utm_content=a&utm_term=defi&ref=x',
    );
    const handle = await start();
    history.pushState(null, '', '/swap'); // no UTM in this URL any more
    await vi.advanceTimersByTimeAsync(29 * 60 * 1000);
    history.pushState(null, '', '/pools'); // 29 minutes later: same session
    await vi.advanceTimersByTimeAsync(31 * 60 * 1000);
    history.pushState(null, '', '/later'); // 31 idle minutes: a new session, landing on a URL without UTM
    await handle.flush();
    const views = byType(sent.events(), 'page_view');
    const landing = { source: 'twitter', medium: 'social', campaign: 'launch', content: 'a', term: 'defi' };
    expect(views.map((view) => [view.path, view.utm])).toEqual([
      ['/', landing],
      ['/swap', landing],
      ['/pools', landing],
      ['/later', undefined],
    ]);
    expect(views[2]?.sessionId).toBe(views[0]?.sessionId);
    expect(views[3]?.sessionId).not.toBe(views[0]?.sessionId);
    expect(views[3]?.userId).toBe(views[0]?.userId);
  });

  it('keeps the user and the session across page loads (localStorage), and sets no cookie', async () => {
    const sent = stubFetch();
    const first = await start();
    await first.flush();
    first.detach();
    const second = await start(); // a fresh copy of the SDK: a new page load
    await second.flush();
    const [a, b] = byType(sent.events(), 'page_view');
    expect(b?.userId).toBe(a?.userId);
    expect(b?.sessionId).toBe(a?.sessionId);
    expect(document.cookie).toBe('');
  });

  it('restores history methods on detach', async () => {
    stubFetch();
    const pushState = history.pushState;
    const handle = await start();
    expect(history.pushState).not.toBe(pushState);
    handle.detach();
    expect(history.pushState).toBe(pushState);
  });
});
