import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { graphqlDocumentAlias } from './vite.config';

export default defineProject({
  plugins: [react()],
  resolve: {
    // GraphiQL's CodeMirror modes load graphql's CommonJS build (through graphql-language-service), while Vite
    // would hand the console's own imports its ES module build: two copies of the schema classes ("from
    // another module or realm"). In the tests both get the CommonJS one; the browser bundle has one copy.
    // As in the build, `graphql(...)` is the runtime module's (graphql-document.test.ts compares it with codegen's).
    alias: [
      { find: /^graphql$/, replacement: fileURLToPath(import.meta.resolve('graphql')) },
      ...(graphqlDocumentAlias as { find: RegExp; replacement: string }[]),
    ],
  },
  test: {
    name: 'console',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    globalSetup: ['./src/testing/generate-operation-types.ts'],
    setupFiles: ['./src/testing/setup-tests.ts'],
    // A worker's files share one module graph and one window (setup-tests.ts clears its storage and cookies
    // before each test, and cleans up the rendered tree after it) instead of a fresh environment and fresh
    // imports of React, the router and the screens per file: about half the project's CPU (ADR 118).
    isolate: false,
    restoreMocks: true,
    // `npm test` runs these beside the journeys and the type checks (ADR 088): a screen's test that takes two
    // seconds alone takes longer on shared cores.
    testTimeout: 20_000,
  },
});
