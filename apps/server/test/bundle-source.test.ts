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
      for (const name of ['main.js', 'admin.js']) {
        const code = readFileSync(path.join(outdir, name), 'utf8');
        expect(code.length).toBeGreaterThan(100_000);
        expect(code.match(/[^\p{ASCII}]/gu) ?? [], name).toEqual([]);
      }
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
