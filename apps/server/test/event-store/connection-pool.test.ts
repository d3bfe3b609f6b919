import type { DuckDBConnection } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { createConnectionPool } from '../../src/modules/event-store/duckdb/connection-pool.ts';

/** A question that holds its connection until the test ends it, and says when it got one. */
function question(served: string[], name: string) {
  let end: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  return {
    end: () => end(),
    work: async (_connection: DuckDBConnection) => {
      served.push(name);
      await ended;
      return name;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the DuckDB adapter's reader pool", () => {
  it('keeps a connection from long reads: a dashboard question is served at once, not after an export window', async () => {
    const pool = createConnectionPool(async () => ({}) as DuckDBConnection, 4);
    const served: string[] = [];
    const busy = Array.from({ length: 10 }, (_, index) => question(served, `busy-${index + 1}`));
    const asked = busy.map((q, index) =>
      pool.use(index % 2 ? 'exporting-project' : 'another-exporting-project', q.work, true),
    );
    await settle();
    // Long reads take three of four connections: the last one is kept for the questions.
    expect(served).toEqual(['busy-1', 'busy-2', 'busy-3']);
    const other = question(served, 'other-1');
    const otherAnswer = pool.use('dashboard-project', other.work);
    await settle();
    expect(served).toEqual(['busy-1', 'busy-2', 'busy-3', 'other-1']);
    other.end();
    expect(await otherAnswer).toBe('other-1');
    // The long reads go on three at a time, all answered.
    for (const q of busy) {
      q.end();
      await settle();
    }
    expect(await Promise.all(asked)).toEqual(busy.map((_, index) => `busy-${index + 1}`));
  });

  it("serves projects in turns: another project's question waits for one of a busy project's, not all", async () => {
    let opened = 0;
    const pool = createConnectionPool(async () => {
      opened++;
      return {} as DuckDBConnection;
    }, 1);
    const served: string[] = [];
    const busy = Array.from({ length: 6 }, (_, index) => question(served, `busy-${index + 1}`));
    const asked = busy.map((q) => pool.use('busy-project', q.work));
    await settle();
    const other = question(served, 'other-1');
    const third = question(served, 'third-1');
    const otherAnswer = pool.use('other-project', other.work);
    const thirdAnswer = pool.use('third-project', third.work);
    await settle();
    expect(served).toEqual(['busy-1']);

    busy[0]?.end();
    await settle();
    // The busy project had its turn; the next two projects come first, then its second question.
    expect(served).toEqual(['busy-1', 'other-1']);
    other.end();
    await expect(otherAnswer).resolves.toBe('other-1');
    expect(served).toEqual(['busy-1', 'other-1', 'third-1']);
    third.end();
    await expect(thirdAnswer).resolves.toBe('third-1');
    for (const q of busy) q.end();
    await expect(Promise.all(asked)).resolves.toEqual(busy.map((_, index) => `busy-${index + 1}`));
    expect(served).toEqual([
      'busy-1',
      'other-1',
      'third-1',
      'busy-2',
      'busy-3',
      'busy-4',
      'busy-5',
      'busy-6',
    ]);
    expect(opened).toBe(1);
  });

  it('takes turns on every connection, and a project alone uses them all', async () => {
    const pool = createConnectionPool(async () => ({}) as DuckDBConnection, 2);
    const served: string[] = [];
    const a = Array.from({ length: 4 }, (_, index) => question(served, `a-${index + 1}`));
    const askedA = a.map((q) => pool.use('a', q.work));
    await settle();
    expect(served).toEqual(['a-1', 'a-2']);
    const b = question(served, 'b-1');
    const askedB = pool.use('b', b.work);
    a[1]?.end();
    await settle();
    expect(served).toEqual(['a-1', 'a-2', 'b-1']);
    a[0]?.end();
    await settle();
    expect(served).toEqual(['a-1', 'a-2', 'b-1', 'a-3']);
    b.end();
    await askedB;
    for (const q of a) q.end();
    await Promise.all(askedA);
    expect(served).toEqual(['a-1', 'a-2', 'b-1', 'a-3', 'a-4']);
  });
});
