import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LEADERSHIP_TRY_EVERY_MS } from '../../src/db/leadership.ts';
import { createClickHouseEventStore } from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { CHROME_UA, pageView } from '../ingestion/support.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { serverCommand } from '../support/server-command.ts';
import { type ServerNode, startedJob, startServerNode } from '../support/server-node.ts';
import { type WorkerChdb, workerChdb } from '../support/worker-chdb.ts';

/**
 * The journey with two real server processes on one PostgreSQL and one ClickHouse (the chdb
 * engine behind ClickHouse's HTTP interface), each node with its own DATA_DIR (docs/scaling.md): events
 * sent to A are on B's dashboard; a key revoked on B is refused by A within 5 s; kill -9 of A under load
 * loses nothing A acknowledged (its log loads when it comes back); the once-only work moves to B.
 */
const JOB = 'event-store-maintenance';
const ORIGIN = 'https://app.example.com';
const PASSWORD = 'correct horse battery staple';

let chdb: WorkerChdb;
let env: Record<string, string>;
const nodes: ServerNode[] = [];

beforeAll(async () => {
  chdb = await workerChdb();
  const databaseUrl = await createTestDatabase(
    inject('postgresAdminUrl'),
    `pf_nodes_${randomBytes(4).toString('hex')}`,
  );
  env = {
    DATABASE_URL: databaseUrl,
    CLICKHOUSE_URL: `${chdb.url}/pf_nodes`,
    JWT_SECRET: randomBytes(32).toString('base64url'),
  };
}, 120_000);

afterAll(async () => {
  for (const node of nodes) {
    await node.kill9();
    node.remove();
  }
});

/** The console's way in: JSON, the XSRF double submit, a Bearer token. */
function consoleClient(node: () => ServerNode) {
  const xsrf = 'two-nodes-xsrf';
  return async (method: string, url: string, options: { token?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${node().url}${url}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}

function sendEvents(node: ServerNode, apiKey: string, events: object[]) {
  return fetch(`${node.url}/api/v1/events`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN, 'user-agent': CHROME_UA },
    body: JSON.stringify({ apiKey, events }),
  });
}

async function until<T>(check: () => Promise<T | undefined>, withinMs: number, what: string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - started > withinMs) throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('two nodes on PostgreSQL + ClickHouse', () => {
  it('shares events, revocations and the once-only work; kill -9 of a node loses nothing it acknowledged', async () => {
    // A starts first and takes the once-only work; B follows.
    nodes.push(await startServerNode({ name: 'a', env }));
    let a = nodes[0] as ServerNode;
    await a.waitForLog(startedJob(JOB), 20_000);
    nodes.push(await startServerNode({ name: 'b', env }));
    const b = nodes[1] as ServerNode;
    const onA = consoleClient(() => a);
    const onB = consoleClient(() => b);

    // An operator creates the account; the owner signs in on A and sets the project up on both nodes.
    const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
    await promisify(execFile)(
      process.execPath,
      serverCommand('admin', 'create-user', '--email', email, '--password', PASSWORD, '--verified'),
      {
        cwd: path.resolve(import.meta.dirname, '../..'),
        env: { ...process.env, ...env, DATA_DIR: a.dataDir },
      },
    );
    const login = await onA('POST', '/api/v1/login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    const token = login.body.token as string;
    const created = await onA('POST', '/api/v1/projects', { token, body: { name: 'Shop' } });
    expect(created.status).toBe(201);
    const projectId = created.body.id as string;
    const keyed = await onA('POST', `/api/v1/projects/${projectId}/api-key`, { token });
    let apiKey = keyed.body.apiKey as string;
    // Set on B, obeyed by A.
    const domain = await onB('PATCH', `/api/v1/projects/${projectId}/domains/add`, {
      token,
      body: { domain: 'app.example.com' },
    });
    expect(domain.status).toBe(200);

    // Events sent to A appear on B's dashboard.
    const users = ['u1', 'u2', 'u3'];
    const accepted = await until(
      async () => {
        const response = await sendEvents(
          a,
          apiKey,
          users.map((userId) => pageView({ userId, sessionId: `${userId}-s` })),
        );
        return response.status === 200 ? response : undefined;
      },
      5_000,
      'A accepts the key and the domain set on B',
    );
    expect(accepted.status).toBe(200);
    const browsers = await until(
      async () => {
        const answer = await onB('POST', '/api/graphql', {
          token,
          body: {
            query: 'query ($projectId: ID!) { browsers(projectId: $projectId) { key value } }',
            variables: { projectId },
          },
        });
        const shares = (answer.body.data as { browsers: { key: string; value: number }[] } | undefined)
          ?.browsers;
        return shares?.length ? shares : undefined;
      },
      20_000,
      "A's events on B's dashboard",
    );
    expect(browsers).toEqual([{ key: 'Chrome', value: 3 }]);

    // A key revoked on B is refused by A within 5 s.
    const revoked = await onB('DELETE', `/api/v1/projects/${projectId}/api-key`, { token });
    expect(revoked.status).toBe(200);
    const revokedAt = Date.now();
    await until(
      async () => ((await sendEvents(a, apiKey, [pageView()])).status === 401 ? true : undefined),
      10_000,
      'A refuses the revoked key',
    );
    expect(Date.now() - revokedAt).toBeLessThan(5_000);

    // kill -9 of A while clients send to it: every batch A acknowledged is stored once A is back.
    apiKey = (await onB('POST', `/api/v1/projects/${projectId}/api-key`, { token })).body.apiKey as string;
    await until(
      async () => ((await sendEvents(a, apiKey, [pageView()])).status === 200 ? true : undefined),
      5_000,
      'A accepts the new key',
    );
    const acknowledged: string[] = [];
    let isSending = true;
    const sender = async () => {
      while (isSending) {
        const events = Array.from({ length: 20 }, (_, index) => pageView({ userId: `load-${index}` }));
        try {
          const response = await sendEvents(a, apiKey, events);
          if (response.status === 200) acknowledged.push(...events.map((event) => event.id));
        } catch {
          return; // A is gone: its connection was reset.
        }
      }
    };
    const senders = Array.from({ length: 4 }, sender);
    await until(async () => (acknowledged.length >= 2_000 ? true : undefined), 30_000, 'load on A');
    const killedAt = Date.now();
    await a.kill9();
    isSending = false;
    await Promise.all(senders);
    expect(acknowledged.length).toBeGreaterThanOrEqual(2_000);

    // The once-only work moves to B.
    await b.waitForLog(startedJob(JOB), 10_000);
    expect(Date.now() - killedAt).toBeLessThan(LEADERSHIP_TRY_EVERY_MS + 3_000);

    // A comes back on its DATA_DIR and loads what it had acknowledged.
    a = await startServerNode({ name: 'a', env, dataDir: a.dataDir });
    nodes.push(a);
    const store = await createClickHouseEventStore(env.CLICKHOUSE_URL as string);
    try {
      const missing = await until(
        async () => {
          const stored = new Set((await store.projectEvents(projectId)).map((row) => row.id));
          const notYet = acknowledged.filter((id) => !stored.has(id));
          return notYet.length === 0 ? notYet : undefined;
        },
        30_000,
        'every acknowledged event stored',
      );
      expect(missing).toEqual([]);
    } finally {
      await store.close();
    }
    // B keeps the once-only work; the restarted A does not start it.
    await new Promise((resolve) => setTimeout(resolve, LEADERSHIP_TRY_EVERY_MS * 3));
    expect(a.logs().filter(startedJob(JOB))).toEqual([]);
  }, 300_000);
});
