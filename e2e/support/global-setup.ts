import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';
import { startMailSink } from './mail-sink.ts';

const repoRoot = join(import.meta.dirname, '..', '..');

async function waitForHealth(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`Polyflow server exited with code ${server.exitCode}`);
    try {
      const response = await fetch(`${url}/api/v1/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Polyflow server did not answer ${url}/api/v1/health within ${timeoutMs} ms`);
}

/**
 * Starts one real Polyflow server (the built `apps/server/dist/main.js`, as `npm start` runs it) with a
 * throwaway DATA_DIR and a real SMTP sink. Workers find them through the environment variables set here.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const entry = join(repoRoot, 'apps/server/dist/main.js');
  if (!existsSync(entry)) throw new Error('The server is not built: run `npm run build` first.');

  const workDir = mkdtempSync(join(tmpdir(), 'polyflow-e2e-'));
  const mailDir = join(workDir, 'mail');
  const sink = await startMailSink(mailDir);
  const port = await freePort();
  const url = `http://localhost:${port}`;

  const server = spawn(process.execPath, [entry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(workDir, 'data'),
      PUBLIC_URL: url,
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      MAIL_FROM: 'Polyflow <no-reply@polyflow.test>',
      // Every journey registers and logs in from 127.0.0.1; the limits themselves are covered by server tests.
      AUTH_RATE_LIMIT_MAX: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  server.stdout?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));

  try {
    await waitForHealth(url, server, 15_000);
  } catch (error) {
    server.kill('SIGKILL');
    console.error(log.join(''));
    throw error;
  }

  process.env.POLYFLOW_URL = url;
  process.env.POLYFLOW_MAIL_DIR = mailDir;
  process.env.POLYFLOW_DATA_DIR = join(workDir, 'data');

  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (server.exitCode === null) server.kill('SIGKILL');
    await sink.close();
    if (process.env.E2E_KEEP_DATA !== '1') rmSync(workDir, { recursive: true, force: true });
  };
}
