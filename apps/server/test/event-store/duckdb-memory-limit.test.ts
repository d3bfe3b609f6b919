import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import {
  asDuckDbEventStore,
  createDuckDbEventStore,
  type DuckDbEventStore,
} from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { testConfig } from '../support/harness.ts';

/**
 * DuckDB's memory limit bounds its buffer pool, which otherwise keeps every block a long read (the raw
 * export) touched, up to 80 % of RAM (docs/decisions/027); 1 GB unless DUCKDB_MEMORY_LIMIT_MB says
 * otherwise, lifted while compaction builds a new primary-key index (docs/decisions/028). DuckDB shows a
 * limit of N MB (10^6 bytes) in MiB, to a tenth rounded down.
 */
const shownAs = (mb: number) => `${(Math.floor(((mb * 1e6) / 2 ** 20) * 10) / 10).toFixed(1)} MiB`;

async function memoryLimitOf(store: DuckDbEventStore): Promise<string> {
  const connection = await store.connect();
  try {
    const reader = await connection.runAndReadAll("SELECT current_setting('memory_limit') AS limit");
    return String(reader.getRowObjectsJS()[0]?.limit);
  } finally {
    connection.closeSync();
  }
}

describe("the DuckDB event store's memory limit", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-duckdb-memory-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("is DuckDB's own when nothing is set, and the one given otherwise", async () => {
    const plain = await createDuckDbEventStore({ file: path.join(tempDir(), 'events.duckdb') });
    const limited = await createDuckDbEventStore({
      file: path.join(tempDir(), 'events.duckdb'),
      memoryLimitMb: 1024,
    });
    try {
      expect(await memoryLimitOf(plain)).not.toBe(shownAs(1024));
      expect(await memoryLimitOf(limited)).toBe(shownAs(1024));
    } finally {
      await plain.close();
      await limited.close();
    }
  });

  it("is lifted to DuckDB's own while compaction rewrites the table, and holds again after", async () => {
    const LIMIT_MB = 16;
    const store = await createDuckDbEventStore({
      file: path.join(tempDir(), 'events.duckdb'),
      // Below what DUCKDB_MEMORY_LIMIT_MB accepts (128): the store takes any limit, and a small one lets a
      // small list prove it (building 320 MB against 128 took most of this file's time).
      memoryLimitMb: LIMIT_MB,
    });
    // A list of 5 M integers (40 MB) is built in memory whole: DuckDB can neither evict nor spill it.
    const bigList = async () => {
      const connection = await store.connect();
      try {
        await connection.run('SELECT length(list(range)) FROM range(5000000)');
        return 'built';
      } catch (error) {
        return (error as Error).message.split('\n')[0] ?? '';
      } finally {
        connection.closeSync();
      }
    };
    try {
      expect(await bigList()).toMatch(/^Out of Memory Error/);
      let during = '';
      let listDuring = '';
      const result = await store.compact({
        force: true,
        onStart: async () => {
          during = await memoryLimitOf(store);
          listDuring = await bigList();
        },
      });
      expect(result.compacted).toBe(true);
      expect(during).not.toBe(shownAs(LIMIT_MB));
      expect(during).toMatch(/GiB$/);
      // Lifted for real, not only in what current_setting shows (RESET GLOBAL did only that).
      expect(listDuring).toBe('built');
      expect(await memoryLimitOf(store)).toBe(shownAs(LIMIT_MB));
      expect(await bigList()).toMatch(/^Out of Memory Error/);
    } finally {
      await store.close();
    }
  });

  it('is what DUCKDB_MEMORY_LIMIT_MB says, through the configuration to the store the app opens', async () => {
    const app = await buildApp(testConfig(tempDir(), { duckDbMemoryLimitMb: 256 }));
    try {
      await app.ready();
      expect(await memoryLimitOf(asDuckDbEventStore(app.services.eventStore))).toBe(shownAs(256));
    } finally {
      await app.close();
    }
  });
});
