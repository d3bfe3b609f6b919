// Bundles the server into dist/main.js and the admin command line into dist/admin.js. npm dependencies stay external (native modules, data files);
// @polyflow/* workspace packages are TypeScript source, so they are bundled in.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

// SERVER_BUILD_OUTDIR: elsewhere than dist/ (test/bundle-source.test.ts builds into a temp dir, leaving
// the dist/ that other tests run alone).
const outdir = process.env.SERVER_BUILD_OUTDIR ?? new URL('./dist', import.meta.url).pathname;

/**
 * Pure-JavaScript ES-module packages every start loads, bundled in (tree-shaken) rather than loaded from
 * node_modules: there they are about 400 modules (kysely 262, zod 95, jose 46), each with its own module
 * record, scope and whole source text in the heap for the server's lifetime; bundled, only the code the
 * server imports is there, about 3 MB less heap at idle (docs/decisions/105). Nothing outside the bundle
 * imports them (two copies of zod or Kysely would not know each other's classes).
 */
const BUNDLED_NPM_PACKAGES = ['kysely', 'zod', 'jose'];

const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(builder) {
    // dist/main.js defers V8's optimizing compiler before it imports the server, dist/server.js, whose npm
    // packages are evaluated with it (docs/decisions/105): one bundle would evaluate them first.
    builder.onResolve({ filter: /^\.\/server\.ts$/ }, (args) =>
      args.importer.endsWith(`${path.sep}src${path.sep}main.ts`)
        ? { path: './server.js', external: true }
        : undefined,
    );
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@polyflow/')) return undefined;
      if (BUNDLED_NPM_PACKAGES.includes(args.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

await build({
  entryPoints: {
    main: new URL('./src/main.ts', import.meta.url).pathname,
    server: new URL('./src/server.ts', import.meta.url).pathname,
    admin: new URL('./src/admin/cli.ts', import.meta.url).pathname,
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalNpmPackages],
  // Bundled CommonJS code may still call require().
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  logLevel: 'info',
});

// esbuild escapes non-ASCII characters in strings (charset ascii) but keeps them in the comments it
// preserves (`…`, `→`). One such character makes V8 hold the whole bundle's source as a two-byte string:
// 1.7 MB instead of 0.86 MB in every server's heap for its lifetime (issue 33). Escaped in those comments
// too, the source is one byte per character; lines, and so the source map, are unchanged.
for (const name of ['main.js', 'server.js', 'admin.js']) {
  const file = path.join(outdir, name);
  const code = readFileSync(file, 'utf8');
  // \uXXXX per UTF-16 unit: read the same in a comment, a string, a template or any regular expression.
  const ascii = code.replace(/[^\p{ASCII}]/gu, (char) =>
    [...Array(char.length).keys()]
      .map((unit) => `\\u${char.charCodeAt(unit).toString(16).padStart(4, '0')}`)
      .join(''),
  );
  if (ascii !== code) writeFileSync(file, ascii);
}
