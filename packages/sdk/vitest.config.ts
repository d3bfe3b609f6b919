import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sdk',
    environment: 'happy-dom',
    environmentOptions: { happyDOM: { url: 'https://dapp.example/' } },
    include: ['test/**/*.test.ts'],
    // `npm test` runs these beside the journeys and the type checks (ADR 088): the tests that build, pack and
    // type-check the package in child processes take a few seconds alone, more on shared cores.
    testTimeout: 60_000,
  },
});
