import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sdk',
    environment: 'happy-dom',
    environmentOptions: { happyDOM: { url: 'https://dapp.example/' } },
    include: ['test/**/*.test.ts'],
    // A worker's files share one window and module graph instead of a fresh environment and imports per file
    // (ADR 118): each test ends with cleanUp() (test/helpers.ts: the SDK's handles, storage, timers, stubs, the URL)
    // and loads the SDK afresh (vi.resetModules) where its module state matters.
    isolate: false,
    // `npm test` runs these beside the journeys and the type checks (ADR 088): the tests that build, pack and
    // type-check the package in child processes take a few seconds alone, more on shared cores.
    testTimeout: 60_000,
  },
});
