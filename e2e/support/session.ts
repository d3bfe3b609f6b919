import type { BrowserContext, Page } from '@playwright/test';

/** What the console's login form stores (PF_USER, console spec §9) after a successful `POST /login`. */
export interface ConsoleSession {
  token: string;
  email: string;
  validUntil: string;
}

/**
 * Logs in through the REST API of the server at `url`, as the console's login form does, and returns the
 * session the form would store. For journeys whose subject is not the login itself: the form costs a page
 * load, and lands on Analytics, whose queries the server keeps answering after the test has moved on.
 */
export async function logInByApi(url: string, credentials: { email: string; password: string }) {
  const health = await fetch(`${url}/api/v1/health`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.getSetCookie().join('\n'))?.[1] ?? '';
  const response = await fetch(`${url}/api/v1/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': xsrf, Cookie: `XSRF-TOKEN=${xsrf}` },
    body: JSON.stringify(credentials),
  });
  const body = await response.text();
  if (!response.ok) throw new Error(`POST ${url}/api/v1/login → ${response.status} ${body}`);
  const { token, validUntil } = JSON.parse(body) as { token: string; validUntil: string };
  return { token, email: credentials.email, validUntil } satisfies ConsoleSession;
}

/** A storage state signed in as `session` on the console at `url` (for `browser.newContext`). */
export function signedInState(url: string, session: ConsoleSession) {
  return {
    cookies: [],
    origins: [
      { origin: new URL(url).origin, localStorage: [{ name: 'PF_USER', value: JSON.stringify(session) }] },
    ],
  };
}

/**
 * Signs the page's context in as `session` on the console at `url` (the server's own session token, as the
 * login form would store it): every page of the context opened afterwards starts signed in, so a journey goes
 * straight to its screen. Only pages of that origin are touched, and only while no session is stored: for
 * journeys that do not log out (a page loaded after a logout would be signed in again).
 */
export async function signIn(target: Page | BrowserContext, url: string, session: ConsoleSession) {
  const context = 'context' in target ? target.context() : target;
  await context.addInitScript(
    ({ origin, value }) => {
      if (location.origin === origin && window.localStorage.getItem('PF_USER') === null)
        window.localStorage.setItem('PF_USER', value);
    },
    { origin: new URL(url).origin, value: JSON.stringify(session) },
  );
}
