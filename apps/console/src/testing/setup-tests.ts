import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// Screens are lazy chunks; the first import of one in a run includes its transform, which `npm test` runs
// beside the journeys and the type checks (ADR 088): a find waits that long at most, and goes on once found.
configure({ asyncUtilTimeout: 15_000 });

beforeEach(() => {
  window.localStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    // biome-ignore lint/suspicious/noDocumentCookie: the XSRF cookie is what the console reads.
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
