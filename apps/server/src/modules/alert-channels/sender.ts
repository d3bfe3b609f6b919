import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import { guardedLookup, hostOf, RefusedAddressError, refusedAddressReason } from './address-guard.ts';

/** Each delivery gives up after this long, connecting and answering included. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Bytes of a receiver's answer read at most; the rest is dropped with the connection. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export type PostResult = {
  /** The receiver's status, or null when there was none (timeout, refused, forbidden address). */
  statusCode: number | null;
  latencyMs: number;
  /** Why the attempt did not deliver; null on a 2xx answer. */
  error: string | null;
};

export type PostOptions = {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowPrivateNetworks: boolean;
  timeoutMs?: number;
};

/**
 * One POST, bounded: at most `timeoutMs` in all, at most 64 KB of the answer read, redirects not followed
 * (a 3xx is an answer that did not deliver), no connection reused (`agent: false`), and the address
 * checked when the socket connects (address-guard.ts). Never throws: the result says what happened.
 */
export function postBounded({
  url,
  headers,
  body,
  allowPrivateNetworks,
  timeoutMs = DELIVERY_TIMEOUT_MS,
}: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      resolve({ statusCode, latencyMs: elapsed(), error });
    };
    let request: http.ClientRequest | undefined;
    const timer = setTimeout(() => finish(null, `no answer within ${timeoutMs / 1000} s`), timeoutMs);

    let target: URL;
    try {
      target = new URL(url);
    } catch {
      finish(null, 'the URL is not valid');
      return;
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      finish(null, 'only http and https URLs are delivered to');
      return;
    }
    // A literal address never goes through `lookup`: checked here.
    const host = hostOf(target);
    if (!allowPrivateNetworks && ipaddr.isValid(host)) {
      const reason = refusedAddressReason(host);
      if (reason) {
        finish(null, new RefusedAddressError(host, host, reason).message);
        return;
      }
    }
    const transport = target.protocol === 'https:' ? https : http;
    try {
      request = transport.request(target, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
        lookup: allowPrivateNetworks ? undefined : guardedLookup,
      });
    } catch (error) {
      finish(null, error instanceof Error ? error.message : String(error));
      return;
    }
    request.on('error', (error: Error & { code?: string }) => {
      finish(null, error instanceof RefusedAddressError ? error.message : describeError(error));
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      const done = () =>
        finish(status, status >= 200 && status < 300 ? null : `the receiver answered ${status}`);
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        // Enough read: the answer's status is what counts; the rest is not waited for.
        if (read >= MAX_RESPONSE_BYTES) done();
      });
      response.on('end', done);
      response.on('error', done);
      response.on('aborted', done);
    });
    request.end(body);
  });
}

function describeError(error: Error & { code?: string }): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve';
    case 'ECONNRESET':
      return 'the connection was reset';
    default:
      return (error.code ? `${error.code}: ${error.message}` : error.message).slice(0, 300);
  }
}
