/**
 * The page to open after logging in: a deep link opened without a session (`/console/<id>/wallets?…`) goes
 * to the root route with it as `next`, and the login goes there. Only a console path of this app is kept,
 * so `next` cannot send anyone to another site (no open redirect).
 */
const BASE = 'https://polyflow.invalid';
/** Where a login lands without a page to come back to (the shell reopens the last project). */
const DEFAULT_LANDING = new Set(['/console', '/console/', '/console/analytics']);

export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || value.length > 2000 || !value.startsWith('/console/')) return null;
  // Whitespace, backslashes (read as slashes by browsers) and encoded dots or slashes have no place here;
  // other control characters come back percent-encoded from URL, so the last check refuses them.
  if (/[\s\\]/.test(value) || /%2e|%2f|%5c/i.test(value.split(/[?#]/)[0] ?? '')) return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE || !url.pathname.startsWith('/console/')) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path === value ? path : null;
}

/** Set by Log out, until the next login: the session was ended on purpose, with no page to come back to. */
let endedByLogout = false;
export function noteLogout(): void {
  endedByLogout = true;
}
export function noteLogin(): void {
  endedByLogout = false;
}

/** The root route, with the page asked for as `next` when there is one worth coming back to. */
export function loginPathFor(pathname: string, search: string): string {
  if (endedByLogout || (DEFAULT_LANDING.has(pathname) && !search)) return '/';
  const next = safeReturnPath(`${pathname}${search}`);
  return next ? `/?next=${encodeURIComponent(next)}` : '/';
}
