import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanUp, stubFetch } from './helpers.ts';

afterEach(() => {
  (window as unknown as { Polyflow?: { attach(key: string): { detach(): void } } }).Polyflow?.attach(
    'x',
  ).detach();
  Object.defineProperty(document, 'currentScript', { value: null, configurable: true });
  cleanUp();
});

describe('script tag', () => {
  it('attaches with data-api-key and sends to the origin the script came from', async () => {
    const sent = stubFetch();
    const script = document.createElement('script');
    script.src = 'https://polyflow.example:8443/sdk.js';
    script.dataset.apiKey = 'script-key';
    Object.defineProperty(document, 'currentScript', { value: script, configurable: true });
    vi.resetModules();
    await import('../src/script.ts');
    const polyflow = (window as unknown as { Polyflow: { attach(key: string): { flush(): Promise<void> } } })
      .Polyflow;
    await polyflow.attach('ignored: already attached').flush();
    expect(sent.requests[0]?.url).toBe('https://polyflow.example:8443/api/v1/events');
    expect(sent.requests[0]?.batch.apiKey).toBe('script-key');
    // The attached handle's methods are on the global too: `Polyflow.track(…)` after the tag.
    expect(typeof window.Polyflow?.track).toBe('function');
    expect(typeof window.Polyflow?.identify).toBe('function');
  });

  it('uses data-host when given, and does nothing without a key', async () => {
    const sent = stubFetch();
    const script = document.createElement('script');
    script.src = 'https://cdn.example/sdk.js';
    script.dataset.apiKey = 'k';
    script.dataset.host = 'https://analytics.example';
    Object.defineProperty(document, 'currentScript', { value: script, configurable: true });
    vi.resetModules();
    await import('../src/script.ts');
    const polyflow = (window as unknown as { Polyflow: { attach(key: string): { flush(): Promise<void> } } })
      .Polyflow;
    await polyflow.attach('k').flush();
    expect(sent.requests[0]?.url).toBe('https://analytics.example/api/v1/events');
  });
});
