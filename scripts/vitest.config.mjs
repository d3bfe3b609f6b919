import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'scripts',
    environment: 'node',
    include: ['*.test.mjs'],
    // The decision records' check runs `git log` once per record; `npm test` runs it beside the journeys and
    // the type checks (ADR 088).
    testTimeout: 30_000,
  },
});
