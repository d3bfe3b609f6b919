import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // A worker imports the app once and runs its files one after another in that module graph, instead of
    // importing it again for each file (about 1.3 s of CPU a file; decision record 078). The files share no
    // module state: each builds its own app, stores and clock, and restores what it changes.
    isolate: false,
    // One throwaway PostgreSQL for the whole run; each test file creates its own database in it.
    globalSetup: ['./test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
