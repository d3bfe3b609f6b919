import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('the server bundle (build.mjs)', () => {
  it('is ASCII only, so that V8 holds its source one byte per character (issue 33)', () => {
    const outdir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bundle-'));
    try {
      execFileSync(process.execPath, ['build.mjs'], {
        cwd: serverRoot,
        stdio: 'ignore',
        env: { ...process.env, SERVER_BUILD_OUTDIR: outdir },
      });
      for (const name of ['server.js', 'admin.js']) {
        const code = readFileSync(path.join(outdir, name), 'utf8');
        expect(code.length).toBeGreaterThan(100_000);
        expect(code.match(/[^\p{ASCII}]/gu) ?? [], name).toEqual([]);
        // kysely, zod and jose are bundled in (docs/decisions/105), not loaded from node_modules.
        expect(code, name).not.toMatch(/from "(kysely|zod|jose)"/);
      }
      // dist/main.js holds V8's optimizing compiler back, then imports the server: no npm package may be
      // evaluated before it does (static imports are), so it imports only Node's own modules statically.
      const main = readFileSync(path.join(outdir, 'main.js'), 'utf8');
      expect([...main.matchAll(/^import .* from "([^"]+)";?$/gm)].map((match) => match[1])).toEqual([
        'node:v8',
      ]);
      const deferred = main.indexOf('setFlags("--no-turbofan")');
      expect(deferred).toBeGreaterThan(0);
      expect(main.indexOf('await import("./server.js")')).toBeGreaterThan(deferred);
      // DuckDB's allocator reads its settings when the binding loads, with server.js (ADR 163): set before it.
      const allocator = main.indexOf('process.env.DUCKDB_JE_MALLOC_CONF ??=');
      expect(allocator).toBeGreaterThan(0);
      expect(main.indexOf('await import("./server.js")')).toBeGreaterThan(allocator);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
