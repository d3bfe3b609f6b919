import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { type AliasOptions, defineConfig } from 'vite';

// The API and the SDK script come from the Polyflow server; in production it also serves this build.
const serverOrigin = 'http://127.0.0.1:3000';

/**
 * `graphql(...)` at runtime is the document's own text (src/lib/graphql-document.ts); the generated src/gql/gql.ts
 * types it for the typecheck only. So the build needs neither GraphQL Code Generator nor src/gql/.
 */
export const graphqlDocumentAlias: AliasOptions = [
  {
    find: /^(?:\.{1,2}\/)+gql\/gql$/,
    replacement: fileURLToPath(new URL('src/lib/graphql-document.ts', import.meta.url)),
  },
];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: graphqlDocumentAlias },
  server: {
    proxy: {
      '/api': { target: serverOrigin, changeOrigin: false },
      '/sdk.js': { target: serverOrigin, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Read by scripts/first-screen-size.mjs to check the first-screen budget.
    manifest: true,
    // The GraphQL API screen's editor (GraphiQL ~780 kB and Monaco ~2.8 MB, minified) loads lazily, only on
    // that screen; the first screen's budget is checked by scripts/first-screen-size.mjs, not by this warning.
    chunkSizeWarningLimit: 3000,
    rolldownOptions: {
      onLog(level, log, handler) {
        // GraphiQL's packages start files with React Compiler's "use no memo" directives, which a bundle
        // cannot keep per module; they are hints for the compiler, and dropping them changes nothing.
        if (log.code === 'MODULE_LEVEL_DIRECTIVE' && /use no memo/.test(log.message)) return;
        handler(level, log);
      },
    },
  },
});
