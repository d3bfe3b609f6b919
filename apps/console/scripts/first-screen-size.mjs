// Sums the gzip size of the JS a browser loads before the first screen (the root route) renders:
// the entry chunk, its static imports, and the auth screen's lazy chunk with its static imports.
// Budget (DESIGN.md): 150 KB. Run after `npm run build -w apps/console`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 150 * 1024;
const dist = join(import.meta.dirname, '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const firstScreen = ['index.html', 'src/features/auth/routes/auth-route.tsx'];

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) visit(imported);
};
for (const key of firstScreen) visit(key);

let total = 0;
for (const file of [...files].filter((name) => name.endsWith('.js'))) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += size;
  console.log(`${(size / 1024).toFixed(2).padStart(8)} KB  ${file}`);
}
console.log(
  `${(total / 1024).toFixed(2).padStart(8)} KB  first screen JS, gzip (budget ${BUDGET_BYTES / 1024} KB)`,
);
if (total > BUDGET_BYTES) process.exitCode = 1;
