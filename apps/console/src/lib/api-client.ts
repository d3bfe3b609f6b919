import { ApiErrorSchema, type FieldIssue } from '@polyflow/contracts/errors';
import type { z } from 'zod';
import { getActiveSession } from './session';
import { clearStoredSession } from './storage';

export const API_BASE = '/api/v1';
const XSRF_COOKIE = 'XSRF-TOKEN';
const XSRF_HEADER = 'X-XSRF-TOKEN';

/** A failure the UI can show: the server's `{errorCode, message}` or one of our own codes. */
export class ApiError extends Error {
  readonly errorCode: string;
  readonly status: number;
  readonly details: FieldIssue[] | undefined;

  constructor(errorCode: string, message: string, status = 0, details?: FieldIssue[]) {
    super(message);
    this.name = 'ApiError';
    this.errorCode = errorCode;
    this.status = status;
    this.details = details;
  }

  // The spec alerts `JSON.stringify(error)`; without this the message (not enumerable) would be lost.
  toJSON() {
    return { errorCode: this.errorCode, message: this.message, status: this.status, details: this.details };
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/**
 * The server sets the XSRF cookie on any response that lacks it. When the page itself was not
 * served by it (Vite dev server) the first mutation would have no cookie yet, so ask once.
 */
async function xsrfToken(): Promise<string | null> {
  const existing = readCookie(XSRF_COOKIE);
  if (existing) return existing;
  try {
    await fetch(`${API_BASE}/health`, { credentials: 'same-origin' });
  } catch {
    // The real request will report the network failure.
  }
  return readCookie(XSRF_COOKIE);
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface RequestOptions {
  method?: Method;
  body?: unknown;
  /** Sends the stored session as a bearer token; a 401 answer then ends the session. */
  auth?: boolean;
  signal?: AbortSignal;
}

export function apiRequest<T>(path: string, options: RequestOptions & { schema: z.ZodType<T> }): Promise<T>;
export function apiRequest(path: string, options?: RequestOptions): Promise<void>;
export async function apiRequest<T>(
  path: string,
  { method = 'GET', body, auth = false, signal, schema }: RequestOptions & { schema?: z.ZodType<T> } = {},
): Promise<T | undefined> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (auth) {
    const session = getActiveSession();
    if (!session) throw new ApiError('NOT_LOGGED_IN', 'Not logged in');
    headers.Authorization = `Bearer ${session.token}`;
  }
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') {
    const token = await xsrfToken();
    if (token) headers[XSRF_HEADER] = token;
  }

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('NETWORK_ERROR', 'Could not reach the Polyflow server. Check your connection.');
  }

  if (!response.ok) {
    const failure = await readFailure(response);
    if (auth && response.status === 401) clearStoredSession();
    throw failure;
  }
  if (!schema) return undefined;
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw new ApiError('INVALID_RESPONSE', 'The server sent an answer the console does not understand.', 0);
  }
  return parsed.data;
}

/** A file the server answered with (the raw export): its bytes and the name it gave it. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

/**
 * GET a file with the stored session (a link cannot send the bearer token), failures as for apiRequest.
 * The body is read whole into a Blob before it is saved.
 */
export async function apiDownload(
  path: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<DownloadedFile> {
  const session = getActiveSession();
  if (!session) throw new ApiError('NOT_LOGGED_IN', 'Not logged in');
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      headers: { Authorization: `Bearer ${session.token}` },
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('NETWORK_ERROR', 'Could not reach the Polyflow server. Check your connection.');
  }
  if (!response.ok) {
    const failure = await readFailure(response);
    if (response.status === 401) clearStoredSession();
    throw failure;
  }
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), fileName };
}

async function readFailure(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => undefined);
  const parsed = ApiErrorSchema.safeParse(body);
  if (parsed.success) {
    const { errorCode, message, details } = parsed.data;
    return new ApiError(errorCode, message, response.status, details);
  }
  return new ApiError(
    'HTTP_ERROR',
    `The server answered ${response.status} ${response.statusText}`.trim(),
    response.status,
  );
}
