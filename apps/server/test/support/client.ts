import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

export type RequestOptions = {
  body?: unknown;
  /** Raw payload (malformed JSON, huge strings); sent as is with `contentType`. */
  payload?: string | Buffer;
  contentType?: string;
  token?: string;
  /** Send the XSRF cookie + matching header (default true). */
  xsrf?: boolean;
  headers?: Record<string, string>;
};

const XSRF_VALUE = 'test-xsrf-token-value';

/** `app.inject` the way the console calls the API: JSON, XSRF double submit, optional bearer token. */
export function apiClient(app: FastifyInstance) {
  async function request(method: Method, url: string, options: RequestOptions = {}) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.xsrf !== false) {
      headers.cookie = `XSRF-TOKEN=${XSRF_VALUE}`;
      headers['x-xsrf-token'] = XSRF_VALUE;
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let payload: string | Buffer | undefined = options.payload;
    if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    return app.inject({ method, url: url.startsWith('/') ? url : `/api/v1/${url}`, headers, payload });
  }
  return {
    request,
    get: (url: string, options?: RequestOptions) => request('GET', url, options),
    post: (url: string, options?: RequestOptions) => request('POST', url, options),
    patch: (url: string, options?: RequestOptions) => request('PATCH', url, options),
    delete: (url: string, options?: RequestOptions) => request('DELETE', url, options),
    put: (url: string, options?: RequestOptions) => request('PUT', url, options),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

/** Asserts the shape every error answer has and returns it. */
export function errorOf(response: LightMyRequestResponse): {
  errorCode: string;
  message: string;
  details?: unknown;
} {
  const body = response.json() as { errorCode?: unknown; message?: unknown };
  if (typeof body.errorCode !== 'string' || typeof body.message !== 'string') {
    throw new Error(`Not an error body (${response.statusCode}): ${response.body}`);
  }
  return body as { errorCode: string; message: string };
}
