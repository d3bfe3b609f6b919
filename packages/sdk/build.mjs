// Builds the SDK bundles; `--size` prints each bundle's minified + gzip size and fails over the budget.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { minify } from 'terser';

/** DESIGN.md budget for the whole SDK, minified + gzip. */
export const BUDGET_BYTES = 4096;
const root = dirname(fileURLToPath(import.meta.url));

const bundles = [
  { file: 'polyflow.esm.js', entry: 'src/index.ts', format: 'esm' },
  { file: 'polyflow.iife.js', entry: 'src/script.ts', format: 'iife' },
];

const results = [];
for (const { file, entry, format } of bundles) {
  const out = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    minify: true,
    format,
    target: 'es2021',
    platform: 'browser',
    legalComments: 'none',
    write: false,
  });
  // esbuild bundles; terser's extra compression passes then win about 4 % gzip over esbuild's minifier.
  const { code } = await minify(out.outputFiles[0].text, {
    compress: { passes: 3 },
    mangle: true,
    module: format === 'esm',
  });
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, 'dist', file), code);
  results.push({ file, minified: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length });
}

if (process.argv.includes('--size')) {
  let over = false;
  for (const { file, minified, gzip } of results) {
    // Each bundle holds the whole SDK, so each must fit the budget on its own.
    over ||= gzip > BUDGET_BYTES;
    console.log(`${file}: ${minified} bytes minified, ${gzip} bytes minified+gzip (budget ${BUDGET_BYTES})`);
  }
  if (over) {
    console.error('SDK over its size budget');
    process.exit(1);
  }
} else {
  for (const { file } of results) console.log(`built dist/${file}`);
}
