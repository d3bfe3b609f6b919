import { defineProject } from 'vitest/config';
// DuckDB's allocator settings (ADR 163), in this process's environment before the workers start: they inherit it,
// so a test file that loads DuckDB's binding itself, before any of the server's modules, gets them too.
import './src/modules/event-store/duckdb/allocator.ts';

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
