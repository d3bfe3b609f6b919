import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { tokenFromLink, waitForMail } from './mail.ts';
import { signIn } from './session.ts';

export interface Account {
  email: string;
  password: string;
  token: string;
  validUntil: string;
}

export interface Project {
  id: string;
  name: string;
  apiKey: string | null;
  whitelistedDomains: string[];
}

function baseUrl(): string {
  const url = process.env.POLYFLOW_URL;
  if (!url) throw new Error('POLYFLOW_URL is not set: run the tests through playwright.config.ts');
  return url;
}

/** A REST client that behaves like the console: XSRF cookie echoed in the header, Bearer token when given. */
export class PolyflowApi {
  private xsrfToken: string | undefined;

  constructor(private readonly bearer?: string) {}

  private async ensureXsrf(): Promise<string> {
    if (this.xsrfToken) return this.xsrfToken;
    const response = await fetch(`${baseUrl()}/api/v1/health`);
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith('XSRF-TOKEN='));
    const token = cookie?.split(';')[0]?.split('=')[1];
    if (!token) throw new Error('The server did not set an XSRF-TOKEN cookie');
    this.xsrfToken = token;
    return token;
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = {};
    if (method !== 'GET') {
      const xsrf = await this.ensureXsrf();
      headers['X-XSRF-TOKEN'] = xsrf;
      headers.Cookie = `XSRF-TOKEN=${xsrf}`;
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.bearer) headers.Authorization = `Bearer ${this.bearer}`;
    const response = await fetch(`${baseUrl()}/api/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async expectOk<T>(method: string, path: string, body?: unknown): Promise<T> {
    const result = await this.call<T>(method, path, body);
    if (result.status >= 400)
      throw new Error(`${method} ${path} → ${result.status} ${JSON.stringify(result.body)}`);
    return result.body;
  }
}

export function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}@example.com`;
}

/** Registers an account and verifies it through the real verification email. */
export async function createVerifiedAccount(label = 'owner'): Promise<Account> {
  const email = uniqueEmail(label);
  const password = 'correct horse battery';
  const anonymous = new PolyflowApi();
  await anonymous.expectOk('POST', '/register', { email, password });
  const mail = await waitForMail(email, /verify/i);
  const session = await anonymous.expectOk<{ token: string; validUntil: string }>(
    'POST',
    '/register/verify',
    {
      token: tokenFromLink(mail, '/verify'),
    },
  );
  return { email, password, token: session.token, validUntil: session.validUntil };
}

/** A project with an API key and the given whitelisted domains, owned by `account`. */
export async function createProject(
  account: Account,
  name: string,
  domains: string[] = [],
): Promise<Project> {
  const api = new PolyflowApi(account.token);
  let project = await api.expectOk<Project>('POST', '/projects', { name });
  project = await api.expectOk<Project>('POST', `/projects/${project.id}/api-key`);
  for (const domain of domains) {
    project = await api.expectOk<Project>('PATCH', `/projects/${project.id}/domains/add`, { domain });
  }
  return project;
}

/**
 * Signs the page's context in as `account` with its session token (the one its verification gave), as the
 * login form would store it, for journeys whose subject is not the login: their next page opens signed in.
 */
export async function signInAs(page: Page, account: Account): Promise<void> {
  await signIn(page, baseUrl(), {
    token: account.token,
    email: account.email,
    validUntil: account.validUntil,
  });
}
