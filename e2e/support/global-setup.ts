import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMailSink } from './mail-sink.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

/**
 * Starts one real Polyflow server (the built `apps/server/dist/main.js`, as `npm start` runs it) with a
 * throwaway DATA_DIR and a real SMTP sink. Workers find them through the environment variables set here.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const workDir = mkdtempSync(join(tmpdir(), 'polyflow-e2e-'));
  const mailDir = join(workDir, 'mail');
  const sink = await startMailSink(mailDir);
  let server: ServerProcess;
  try {
    server = await startServerProcess({
      ...process.env,
      DATA_DIR: join(workDir, 'data'),
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      MAIL_FROM: 'Polyflow <no-reply@polyflow.test>',
      // Every journey registers and logs in from 127.0.0.1; the limits themselves are covered by server tests.
      AUTH_RATE_LIMIT_MAX: '1000',
      // An email whose first send fails is retried after this instead of 30 s, so a journey waiting for it does
      // not run into its own timeout; the outbox's retries themselves are covered by server tests.
      MAIL_RETRY_MIN_SECONDS: '2',
      // The alerts journey's webhook receiver listens on 127.0.0.1, which alert channels refuse otherwise
      // (docs/alerts.md); its rule is evaluated every 5 s (the minimum) instead of every minute.
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      ALERT_EVALUATION_INTERVAL_SECONDS: '5',
    });
  } catch (error) {
    await sink.close();
    throw error;
  }
  const url = server.url;

  process.env.POLYFLOW_URL = url;
  process.env.POLYFLOW_MAIL_DIR = mailDir;
  process.env.POLYFLOW_DATA_DIR = join(workDir, 'data');
  // The demo seeds, one per size, made by the first spec file that asks (demo-instance.ts).
  process.env.POLYFLOW_DEMO_CACHE = join(workDir, 'demo-seeds');
  mkdirSync(process.env.POLYFLOW_DEMO_CACHE);

  return async () => {
    await server.stop();
    await sink.close();
    if (process.env.E2E_KEEP_DATA !== '1') rmSync(workDir, { recursive: true, force: true });
  };
}
