import { vi } from 'vitest';

/** A request the console made, as the server would see it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

export type Reply = { status: number; body?: unknown } | 'network-error';
type Handler = (request: RecordedRequest) => Reply | Promise<Reply>;

export const json = (status: number, body?: unknown): Reply => ({ status, body });
export const apiError = (status: number, errorCode: string, message: string): Reply => ({
  status,
  body: { errorCode, message },
});

/**
 * Replaces `fetch`, the console's only way out, with handlers keyed by "METHOD /path" (path under
 * /api/v1, query string ignored unless the key has one). Unhandled requests answer 404 as the server would.
 */
export function mockApi(handlers: Record<string, Handler | Reply>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://console.test');
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const request: RecordedRequest = {
      method,
      path: path + url.search,
      headers: new Headers(init.headers),
      body,
    };
    requests.push(request);
    const handler = handlers[`${method} ${path}${url.search}`] ?? handlers[`${method} ${path}`];
    const reply =
      handler === undefined
        ? apiError(404, 'RESOURCE_NOT_FOUND', `No handler for ${method} ${path}`)
        : typeof handler === 'function'
          ? await handler(request)
          : handler;
    if (reply === 'network-error') throw new TypeError('Failed to fetch');
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: reply.body === undefined ? {} : { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requests,
    /** Requests other than the XSRF cookie warm-up. */
    calls: (key: string) =>
      requests.filter((request) => `${request.method} ${request.path.split('?')[0]}` === key),
  };
}

/** happy-dom has no `window.alert`; the spec's alerts are part of the behaviour under test. */
export function spyOnAlert() {
  const alert = vi.fn<(message?: unknown) => void>();
  vi.stubGlobal('alert', alert);
  return alert;
}
