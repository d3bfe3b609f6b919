import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What loading the server's modules does, in a fresh process (this worker may have loaded them already). */
function loadFootprint(): { formatters: string[]; clickhouseDriver: boolean; modules: number } {
  const output = execFileSync(process.execPath, ['--import', 'tsx', 'test/support/load-footprint.ts'], {
    cwd: serverRoot,
    encoding: 'utf8',
  });
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}');
}

// What an idle server keeps resident because its modules loaded it (docs/decisions/089).
describe("the server's modules as they load", () => {
  it('make no Intl formatter and leave the ClickHouse driver unloaded', { timeout: 120_000 }, () => {
    const footprint = loadFootprint();
    // An Intl formatter reads ICU's data from the `node` binary: one NumberFormat keeps about 5 MB of its
    // pages resident for the process's lifetime.
    expect(footprint.formatters).toEqual([]);
    // `@clickhouse/client` comes with the first ClickHouse connection, never on DuckDB (the default).
    expect(footprint.clickhouseDriver).toBe(false);
    // The probe saw the modules load (CommonJS packages such as Fastify's are in require's cache).
    expect(footprint.modules).toBeGreaterThan(50);
  });
});
