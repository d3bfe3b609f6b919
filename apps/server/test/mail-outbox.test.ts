import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Config } from '../src/config.ts';
import { apiClient } from './support/client.ts';
import { testConfig, uniqueEmail } from './support/harness.ts';
import { serverCommand } from './support/server-command.ts';
import { codeFrom, startSmtpSink } from './support/smtp-sink.ts';

const PASSWORD = 'a long enough password';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-mail-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A mail server that accepts connections and never says a word. */
async function startStalledSmtp(port = 0): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function start(config: Config) {
  const app = await buildApp(config);
  await app.ready();
  return app;
}

async function register(app: Awaited<ReturnType<typeof start>>, email: string) {
  const response = await apiClient(app).post('register', { body: { email, password: PASSWORD } });
  expect(response.statusCode).toBe(204);
}

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const fast = { smtpTimeoutMs: 300, mailRetryMinMs: 200 } satisfies Partial<Config>;

describe('the mail outbox', () => {
  it('keeps a verification email while the mail server stalls and sends it once, as soon as SMTP answers', async () => {
    const stalled = await startStalledSmtp();
    const config = testConfig(tempDir(), { ...fast, smtpUrl: `smtp://127.0.0.1:${stalled.port}` });
    const app = await start(config);
    cleanups.push(() => app.close());
    const email = uniqueEmail('stalled');
    const started = Date.now();
    await register(app, email);
    // The answer does not wait for SMTP.
    expect(Date.now() - started).toBeLessThan(2_000);

    const outbox = () => app.services.db.selectFrom('mail_outbox').selectAll().execute();
    await until(async () => (await outbox())[0]?.last_error != null);
    const [row] = await outbox();
    // Stored encrypted: neither the address nor the code can be read from the database.
    expect(row?.message).not.toContain(email.split('@')[0]);
    expect(row?.message).not.toContain('verify');

    // The same port starts answering: the next retry delivers, once.
    await stalled.close();
    const sink = await startSmtpSink(stalled.port);
    cleanups.push(() => sink.close());
    const message = await sink.waitFor(email, { timeoutMs: 10_000 });
    expect(codeFrom(message)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await until(async () => (await outbox()).length === 0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sink.messages.filter((received) => received.to.includes(email))).toHaveLength(1);
  });

  it('sends an email kept while SMTP was down after a restart, and closes at once with a send stalled', async () => {
    const dataDir = tempDir();
    const stalled = await startStalledSmtp();
    const config = testConfig(dataDir, {
      smtpTimeoutMs: 60_000,
      smtpUrl: `smtp://127.0.0.1:${stalled.port}`,
    });
    cleanups.push(() => stalled.close());
    const first = await start(config);
    const email = uniqueEmail('restart');
    await register(first, email);
    // Under way and stalled (the timeout is a minute away): closing must not wait for it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const closing = Date.now();
    await first.close();
    expect(Date.now() - closing).toBeLessThan(2_000);

    const sink = await startSmtpSink();
    cleanups.push(() => sink.close());
    const second = await start({ ...config, smtpUrl: sink.url });
    cleanups.push(() => second.close());
    const message = await sink.waitFor(email, { timeoutMs: 10_000 });
    expect(message.subject).toMatch(/verify/i);
    await until(async () => (await second.services.mail.waiting()) === 0);
    expect(sink.messages.filter((received) => received.to.includes(email))).toHaveLength(1);
  });
});

describe('the server process', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
  });

  it('exits cleanly (status 0, in about a second) on SIGTERM while a send is stalled', async () => {
    const stalled = await startStalledSmtp();
    cleanups.push(() => stalled.close());
    const dataDir = tempDir();
    child = spawn(process.execPath, serverCommand('main'), {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: {
        ...process.env,
        PORT: '0',
        DATA_DIR: dataDir,
        SMTP_URL: `smtp://127.0.0.1:${stalled.port}`,
        SMTP_TIMEOUT_MS: '60000',
        CONSOLE_DIR: path.join(dataDir, 'no-console'),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)));
    await until(async () => /listening on http:\/\/127\.0\.0\.1:\d+/.test(output), 30_000);
    const base = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] as string;

    const health = await fetch(`${base}/api/v1/health`);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1] as string;
    const registered = await fetch(`${base}/api/v1/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
      body: JSON.stringify({ email: uniqueEmail('sigterm'), password: PASSWORD }),
    });
    expect(registered.status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const stopping = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(3_000);
  }, 60_000);
});
