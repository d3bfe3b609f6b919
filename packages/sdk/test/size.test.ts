// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

describe('size budget', () => {
  it('keeps each core bundle at or under 4096 bytes and the add-on at or under 1024 (minified + gzip)', () => {
    // The same script as `npm run size`: it exits non-zero over budget, which makes execFileSync throw.
    const output = execFileSync(process.execPath, ['build.mjs', '--size'], {
      cwd: packageDir,
      encoding: 'utf8',
    });
    console.log(output.trim());
    const sizes = [...output.matchAll(/(\S+): \d+ bytes minified, (\d+) bytes minified\+gzip/g)];
    expect(sizes.map((match) => match[1])).toEqual([
      'polyflow.esm.js',
      'polyflow.iife.js',
      'polyflow-addon.esm.js',
    ]);
    for (const match of sizes) {
      expect(Number(match[2])).toBeLessThanOrEqual(match[1] === 'polyflow-addon.esm.js' ? 1024 : 4096);
    }
  }, 60_000);
});
