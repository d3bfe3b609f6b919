import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startServerProcess } from '../../support/server-process.ts';
import { logInByApi, signIn } from '../../support/session.ts';

/**
 * A Polyflow server of this spec file's own (the built `apps/server/dist/main.js`, as `npm start` runs it),
 * with its own DATA_DIR. The SDK journeys need one they can stop: DuckDB lets one process open the event
 * file, so the stored events are read from `events.duckdb` only after `stop()`.
 * Mail goes to DATA_DIR/outbox (no SMTP_URL), where `createProject` finds the verification link.
 */
export interface PolyflowInstance {
  url: string;
  dataDir: string;
  /** The server's output, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface OwnedProject {
  id: string;
  apiKey: string;
  /** The owner's session token. */
  token: string;
  /** The owner's login (password OWNER_PASSWORD), for journeys through the console. */
  email: string;
  whitelistedDomains: string[];
}

export async function startPolyflow(): Promise<PolyflowInstance> {
  const workDir = mkdtempSync(join(tmpdir(), 'polyflow-sdk-e2e-'));
  const dataDir = join(workDir, 'data');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    AUTH_RATE_LIMIT_MAX: '1000',
    LOG_LEVEL: 'warn',
  };
  delete env.SMTP_URL;
  delete env.DATABASE_URL;
  const server = await startServerProcess(env);
  return { url: server.url, dataDir, output: server.output, stop: server.stop };
}

export function removeInstanceData(instance: PolyflowInstance): void {
  if (process.env.E2E_KEEP_DATA !== '1')
    rmSync(join(instance.dataDir, '..'), { recursive: true, force: true });
}

/** REST calls the way the console makes them: XSRF cookie echoed in the header, Bearer token when given. */
export async function rest<T>(
  instance: PolyflowInstance,
  method: string,
  path: string,
  options: { body?: unknown; token?: string } = {},
): Promise<T> {
  const health = await fetch(`${instance.url}/api/v1/health`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.getSetCookie().join('\n'))?.[1] ?? '';
  const headers: Record<string, string> = { 'X-XSRF-TOKEN': xsrf, Cookie: `XSRF-TOKEN=${xsrf}` };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const response = await fetch(`${instance.url}/api/v1${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${method} ${path} → ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function verificationToken(instance: PolyflowInstance, email: string): Promise<string> {
  const outbox = join(instance.dataDir, 'outbox');
  // Written within a second alone; longer beside the other steps of `npm test` (ADR 088) on a busy machine.
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const files = existsSync(outbox) ? readdirSync(outbox).filter((name) => name.includes(email)) : [];
    for (const file of files) {
      const token = /\/verify\?token=([A-Za-z0-9_-]+)/.exec(readFileSync(join(outbox, file), 'utf8'))?.[1];
      if (token) return token;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No verification email for ${email} in ${outbox}`);
}

/** A verified owner with a project, an API key and the given whitelisted domains. */
export const OWNER_PASSWORD = 'a long enough secret';

export async function createProject(instance: PolyflowInstance, domains: string[]): Promise<OwnedProject> {
  const email = `sdk-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await rest(instance, 'POST', '/register', { body: { email, password: OWNER_PASSWORD } });
  const { token } = await rest<{ token: string }>(instance, 'POST', '/register/verify', {
    body: { token: await verificationToken(instance, email) },
  });
  const created = await rest<{ id: string }>(instance, 'POST', '/projects', {
    body: { name: 'Demo dapp' },
    token,
  });
  let project = await rest<{ id: string; apiKey: string; whitelistedDomains: string[] }>(
    instance,
    'POST',
    `/projects/${created.id}/api-key`,
    { token },
  );
  for (const domain of domains) {
    project = await rest(instance, 'PATCH', `/projects/${project.id}/domains/add`, {
      body: { domain },
      token,
    });
  }
  return {
    id: project.id,
    apiKey: project.apiKey,
    token,
    email,
    whitelistedDomains: project.whitelistedDomains,
  };
}

/**
 * Signs the page's context in as the project's owner without the login form (ADR 106), for journeys on an
 * instance of their own whose subject is not the login: one API login, its session stored as the form would.
 */
export async function signInAsOwner(page: Page, instance: PolyflowInstance, project: OwnedProject) {
  const session = await logInByApi(instance.url, { email: project.email, password: OWNER_PASSWORD });
  await signIn(page, instance.url, session);
}
