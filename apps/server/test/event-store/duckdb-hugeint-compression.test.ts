import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { CREATE_EVENTS_TABLE } from '../../src/modules/event-store/duckdb/schema.ts';

/**
 * The events table's HUGEINT columns are never bit-packed (duckdb/schema.ts, ADR 060): DuckDB reads such
 * segments row by row under a filter, which made the wallet and gas questions slow. Small gas values
 * over many rows are what DuckDB bit-packs when it may; the choice must also hold for rows checkpointed
 * after the table was reopened.
 */
const HUGEINT_COLUMNS = ['gas_used', 'effective_gas_price', 'tx_value', 'gas_balance'];

const insertRows = (offset: number) => `INSERT INTO events
  (project_id, id, type, ts, received_at, user_id, session_id, origin, gas_used, effective_gas_price, tx_value, gas_balance)
  SELECT 'p', 'e' || (i + ${offset}), 'tx', TIMESTAMP '2026-01-01' + INTERVAL (i) SECOND, TIMESTAMP '2026-01-01',
         'u', 's', 'o', (i % 1000)::HUGEINT, (i % 977)::HUGEINT, (i % 13)::HUGEINT, (i % 5000)::HUGEINT
    FROM range(200000) t(i)`;

async function compressions(file: string, offset: number): Promise<Map<string, Set<string>>> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    await connection.run(CREATE_EVENTS_TABLE);
    await connection.run(insertRows(offset));
    await connection.run('CHECKPOINT');
    const reader = await connection.runAndReadAll(
      `SELECT DISTINCT column_name, compression FROM pragma_storage_info('events')`,
    );
    const byColumn = new Map<string, Set<string>>();
    for (const row of reader.getRowObjectsJS()) {
      const set = byColumn.get(String(row.column_name)) ?? new Set<string>();
      set.add(String(row.compression));
      byColumn.set(String(row.column_name), set);
    }
    return byColumn;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('DuckDB events table: HUGEINT compression', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('stores gas and wei columns without bit-packing, also after the database is reopened', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-hugeint-'));
    dirs.push(dir);
    const file = path.join(dir, 'events.duckdb');
    const first = await compressions(file, 0);
    const second = await compressions(file, 200000);
    for (const found of [first, second]) {
      for (const column of HUGEINT_COLUMNS) {
        expect(found.get(column)?.size, column).toBeGreaterThan(0);
        expect([...(found.get(column) ?? [])], column).not.toContain('BitPacking');
      }
      // The other integer columns keep DuckDB's choice: `ts` still bit-packs.
      expect([...(found.get('ts') ?? [])]).toContain('BitPacking');
    }
  });
});
