import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { noteLogin } from '../lib/return-path';

// Screens are lazy chunks; the first import of one in a run includes its transform, which `npm test` runs
// beside the journeys and the type checks (ADR 088): a find waits that long at most, and goes on once found.
configure({ asyncUtilTimeout: 15_000 });

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  // A page load's own state, which the files of a worker would share: a logout's mark (lib/return-path.ts).
  noteLogin();
  // A cookie set without a path has the page's directory as its own: it is expired there too (the files of a
  // worker share one window: vitest.config.ts).
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (!name) continue;
    for (const path of ['; path=/', '']) {
      // biome-ignore lint/suspicious/noDocumentCookie: the XSRF cookie is what the console reads.
      document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT${path}`;
    }
  }
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
