import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ClickHouseClient, ClickHouseError, ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChdbHttpServer, startChdbHttpServer } from '../support/chdb-http-server.ts';

/**
 * The test-support server that puts chdb behind ClickHouse's HTTP interface: the real @clickhouse/client
 * must find there what it finds on a ClickHouse server, or the ClickHouse adapter's suites prove nothing.
 */

let dir: string;
let server: ChdbHttpServer;
let client: ClickHouseClient;
const open = (password: string, database?: string) =>
  createClient({
    url: server.url,
    username: 'pf',
    password,
    database,
    log: { level: ClickHouseLogLevel.OFF },
  });

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-chdb-http-'));
  server = await startChdbHttpServer({ port: 0, dataPath: dir, user: 'pf', password: 'secret' });
  const root = open('secret');
  await root.command({ query: 'CREATE DATABASE IF NOT EXISTS http_test' });
  await root.close();
  client = open('secret', 'http_test');
  await client.command({
    query: 'CREATE TABLE IF NOT EXISTS t (name String, n Int64) ENGINE = MergeTree ORDER BY name',
  });
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('chdb behind ClickHouse HTTP', () => {
  it('answers /ping', async () => {
    expect(await client.ping()).toEqual({ success: true });
    const response = await fetch(`${server.url}/ping`);
    expect(await response.text()).toBe('Ok.\n');
  });

  it('inserts JSONEachRow into the database of the client and reads it back with bound parameters', async () => {
    const inserted = await client.insert({
      table: 't',
      values: [
        { name: "it's", n: 5 },
        { name: 'back\\slash\ttab', n: 9_007_199_254_740_993n.toString() },
      ],
      format: 'JSONEachRow',
    });
    expect(inserted.summary?.written_rows).toBe('2');
    const result = await client.query({
      query:
        'SELECT name, n, {text:String} AS text, {list:Array(String)} AS list FROM t WHERE n > {min:Int64} ORDER BY n',
      query_params: { text: "x'y\\z\nw", list: ["a'b", 'c\\d'], min: 0 },
      format: 'JSONEachRow',
    });
    // 64-bit integers arrive quoted, as from a ClickHouse server's HTTP defaults.
    expect(await result.json()).toEqual([
      { name: "it's", n: '5', text: "x'y\\z\nw", list: ["a'b", 'c\\d'] },
      { name: 'back\\slash\ttab', n: '9007199254740993', text: "x'y\\z\nw", list: ["a'b", 'c\\d'] },
    ]);
  });

  it('applies per-query settings to that query only', async () => {
    const read = async (settings?: { max_threads: number }) => {
      const result = await client.query({
        query: "SELECT value FROM system.settings WHERE name = 'max_threads'",
        format: 'JSONEachRow',
        clickhouse_settings: settings,
      });
      return ((await result.json()) as { value: string }[])[0]?.value;
    };
    const before = await read();
    expect(await read({ max_threads: 1 })).toBe('1');
    expect(await read()).toBe(before);
    expect(await read({ max_threads: 1 })).toBe('1');
    expect(await read({ max_threads: 1 })).toBe('1');
    expect(await read()).toBe(before);
  });

  it('runs a request whose settings the previous request already set as that one statement alone', async () => {
    const ask = async (settings?: Record<string, number>) => {
      const started = server.statements();
      const result = await client.query({
        query: 'SELECT 1',
        format: 'JSONEachRow',
        clickhouse_settings: settings,
      });
      await result.json();
      return server.statements() - started;
    };
    await ask();
    await ask({ max_threads: 1, max_block_size: 1000 });
    expect(await ask({ max_threads: 1, max_block_size: 1000 })).toBe(1);
    // One setting changed: set, then the query.
    expect(await ask({ max_threads: 1, max_block_size: 2000 })).toBe(2);
    // None named: the previous ones put back, then the query; after that nothing to put back.
    expect(await ask()).toBe(2);
    expect(await ask()).toBe(1);
  });

  it('fails as ClickHouse does: the exception code in a header and the body, and the status of that code', async () => {
    const error = await client.query({ query: 'SELECT nope FROM t' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClickHouseError);
    expect((error as ClickHouseError).code).toBe('47');
    expect((error as ClickHouseError).type).toBe('UNKNOWN_IDENTIFIER');

    const response = await fetch(`${server.url}/?database=http_test`, {
      method: 'POST',
      body: 'SELECT * FROM missing_table',
      headers: { 'X-ClickHouse-User': 'pf', 'X-ClickHouse-Key': 'secret' },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-clickhouse-exception-code')).toBe('60');
    expect(await response.text()).toMatch(/^Code: 60\. DB::Exception: .*\(UNKNOWN_TABLE\)/);

    const syntax = await fetch(`${server.url}/?user=pf&password=secret`, { method: 'POST', body: 'SELEC 1' });
    expect(syntax.status).toBe(400);
    expect(syntax.headers.get('x-clickhouse-exception-code')).toBe('62');
  });

  it('refuses wrong credentials with AUTHENTICATION_FAILED', async () => {
    const intruder = open('wrong', 'http_test');
    const error = await intruder.query({ query: 'SELECT 1' }).catch((caught: unknown) => caught);
    await intruder.close();
    expect((error as ClickHouseError).code).toBe('516');
    const response = await fetch(`${server.url}/?query=SELECT%201`);
    expect(response.status).toBe(401);
  });

  it('inserts a body as INSERT … FORMAT does: omitted fields get their DEFAULT, bad rows fail with their code, no body is left behind', async () => {
    await client.command({
      query: `CREATE TABLE IF NOT EXISTS d (name String, n Int64 DEFAULT 7, at DateTime64(3, 'UTC'))
              ENGINE = MergeTree ORDER BY name`,
    });
    await client.insert({
      table: 'd',
      values: [{ name: 'a', at: '2026-01-02 03:04:05.678' }],
      format: 'JSONEachRow',
    });
    await client.insert({
      table: 'd',
      values: [['b', '9', '2026-01-02 03:04:05.001']],
      format: 'JSONCompactEachRow',
    });
    const rows = await client.query({
      query: 'SELECT name, n, at FROM d ORDER BY name',
      format: 'JSONEachRow',
    });
    expect(await rows.json()).toEqual([
      { name: 'a', n: '7', at: '2026-01-02 03:04:05.678' },
      { name: 'b', n: '9', at: '2026-01-02 03:04:05.001' },
    ]);

    // A table without defaults goes through the file path; a row that does not parse fails the insert.
    const bad = await client
      .insert({ table: 't', values: [{ name: 'x', n: 'not a number' }], format: 'JSONEachRow' })
      .catch((caught: unknown) => caught);
    expect(bad).toBeInstanceOf(ClickHouseError);
    expect(['6', '27', '72', '117']).toContain((bad as ClickHouseError).code);
    const count = await client.query({
      query: "SELECT count() AS c FROM t WHERE name = 'x'",
      format: 'JSONEachRow',
    });
    expect(await count.json()).toEqual([{ c: '0' }]);
    expect(readdirSync(path.join(dir, 'http-inserts'))).toEqual([]);
  });
});
