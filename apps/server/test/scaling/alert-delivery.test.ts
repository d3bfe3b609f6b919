import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type Receiver, startReceiver } from '../alert-channels/receiver.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { serverCommand } from '../support/server-command.ts';
import { type ServerNode, startServerNode } from '../support/server-node.ts';

/**
 * Alert delivery across real server processes (issue 27, docs/alerts.md "Delivery"): a notice stored
 * before a kill -9 is delivered after the restart, and two nodes on one PostgreSQL deliver each notice
 * once per channel (the receiver drops no duplicate).
 */
const PASSWORD = 'correct horse battery staple';
/** Each node's look at the queue for what another node queued (ALERT_DELIVERY_POLL_MS; 2 s by default). */
const POLL_MS = 250;
const nodes: ServerNode[] = [];
const receivers: Receiver[] = [];

afterAll(async () => {
  for (const node of nodes) {
    await node.kill9();
    node.remove();
  }
  for (const receiver of receivers) await receiver.close();
});

/** The console's way in: JSON, the XSRF double submit, a Bearer token. */
async function call(
  node: ServerNode,
  method: string,
  url: string,
  options: { token?: string; body?: unknown } = {},
) {
  const xsrf = 'alert-delivery-xsrf';
  const headers: Record<string, string> = { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${node.url}${url}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** An operator creates the account; its owner logs in and creates a project. */
async function ownerWithProject(node: ServerNode, env: Record<string, string>) {
  const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
  await promisify(execFile)(
    process.execPath,
    serverCommand('admin', 'create-user', '--email', email, '--password', PASSWORD, '--verified'),
    {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, ...env, DATA_DIR: node.dataDir },
    },
  );
  const login = await call(node, 'POST', '/api/v1/login', { body: { email, password: PASSWORD } });
  expect(login.status).toBe(200);
  const token = login.body.token as string;
  const created = await call(node, 'POST', '/api/v1/projects', { token, body: { name: 'Shop' } });
  expect(created.status).toBe(201);
  return { token, projectId: created.body.id as string };
}

describe('alert delivery across processes', () => {
  it('delivers a notice after kill -9 of the node that was delivering it, once the node is back', async () => {
    const env = {
      JWT_SECRET: randomBytes(32).toString('base64url'),
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      ALERT_RETRY_BASE_SECONDS: '1',
      ALERT_DELIVERY_POLL_MS: String(POLL_MS),
    };
    let node = await startServerNode({ name: 'alerts-crash', env });
    nodes.push(node);
    const { token, projectId } = await ownerWithProject(node, env);
    // The receiver takes the first request and never answers: the node dies holding the delivery.
    const receiver = await startReceiver();
    receivers.push(receiver);
    receiver.next = [{ hang: true }];
    const channel = await call(node, 'POST', `/api/v1/projects/${projectId}/alert-channels`, {
      token,
      body: { type: 'webhook', name: 'After the crash', url: `${receiver.url}/crash` },
    });
    expect(channel.status).toBe(201);
    const channelId = channel.body.id as string;
    const sent = await call(node, 'POST', `/api/v1/projects/${projectId}/alert-channels/${channelId}/test`, {
      token,
    });
    expect(sent.status).toBe(202);
    const noticeId = sent.body.noticeId as string;
    await receiver.waitFor(1, 10_000, '/crash');
    await node.kill9();

    // Back on its DATA_DIR: it takes back what it held at once (the 60 s lease is not waited for).
    const restartedAt = Date.now();
    node = await startServerNode({ name: 'alerts-crash', env, dataDir: node.dataDir });
    nodes.push(node);
    const requests = await receiver.waitFor(2, 20_000, '/crash');
    expect(Date.now() - restartedAt).toBeLessThan(30_000);
    expect(requests.map((request) => request.headers['polyflow-delivery'])).toEqual([noticeId, noticeId]);
    expect(requests[0]?.body).toBe(requests[1]?.body);
    expect(JSON.parse(requests[1]?.body ?? '{}')).toMatchObject({ id: noticeId, type: 'test' });

    const log = await call(
      node,
      'GET',
      `/api/v1/projects/${projectId}/alert-channels/${channelId}/deliveries`,
      {
        token,
      },
    );
    const lines = log.body.deliveries as { noticeId: string; state: string }[];
    expect(lines[0]).toMatchObject({ noticeId, state: 'delivered' });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.to('/crash')).toHaveLength(2);
  }, 120_000);

  it('two nodes on PostgreSQL deliver each notice once per channel', async () => {
    const databaseUrl = await createTestDatabase(
      inject('postgresAdminUrl'),
      `pf_alerts_${randomBytes(4).toString('hex')}`,
    );
    const env = {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      ALERT_RETRY_BASE_SECONDS: '1',
      ALERT_DELIVERY_POLL_MS: String(POLL_MS),
    };
    const a = await startServerNode({ name: 'alerts-a', env });
    nodes.push(a);
    const b = await startServerNode({ name: 'alerts-b', env });
    nodes.push(b);
    const receiver = await startReceiver();
    receivers.push(receiver);
    // Slow answers keep deliveries under way on both nodes at once.
    receiver.otherwise = { slowMs: 30, status: 200 };
    const { token, projectId } = await ownerWithProject(a, env);
    const channelIds: string[] = [];
    for (const name of ['c0', 'c1', 'c2']) {
      const created = await call(b, 'POST', `/api/v1/projects/${projectId}/alert-channels`, {
        token,
        body: { type: 'webhook', name, url: `${receiver.url}/${name}` },
      });
      expect(created.status).toBe(201);
      channelIds.push(created.body.id as string);
    }
    // 20 notices per channel, enqueued half on each node, all at once: both nodes claim from one queue.
    const sent = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(
          i % 2 === 0 ? a : b,
          'POST',
          `/api/v1/projects/${projectId}/alert-channels/${channelIds[i % 3]}/test`,
          { token },
        ),
      ),
    );
    expect(sent.map((answer) => answer.status)).toEqual(Array(60).fill(202));
    const noticeIds = sent.map((answer) => answer.body.noticeId as string);
    await receiver.waitFor(60, 30_000);
    // Four more polling rounds of both nodes: nothing is sent a second time.
    await new Promise((resolve) => setTimeout(resolve, 4 * POLL_MS));
    const delivered = receiver.received.map((request) => request.headers['polyflow-delivery']);
    expect(delivered).toHaveLength(60);
    expect([...delivered].sort()).toEqual([...noticeIds].sort());
    for (const [i, id] of noticeIds.entries()) {
      expect(receiver.received.find((request) => request.headers['polyflow-delivery'] === id)?.path).toBe(
        `/c${i % 3}`,
      );
    }
  }, 180_000);
});
