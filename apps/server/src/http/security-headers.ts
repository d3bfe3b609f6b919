import type { FastifyInstance } from 'fastify';

// The console is a Vite-built SPA: scripts and styles come from our origin; recharts sets inline
// style attributes, hence 'unsafe-inline' for styles only. Nothing may frame the console.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Security headers on every response, set without overwriting what a route chose itself (ingestion
 * and `/sdk.js` are fetched cross-origin and may set their own). No Cross-Origin-Resource-Policy:
 * dapps on other origins load `/sdk.js`.
 */
export function installSecurityHeaders(app: FastifyInstance, { isHttps }: { isHttps: boolean }): void {
  const headers: Record<string, string> = {
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    'x-dns-prefetch-control': 'off',
  };
  if (isHttps) headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';

  // Set before the route runs, so that a route's own value replaces ours; a plain callback hook rather
  // than an async one (no promise per request: ingestion answers thousands of requests a second).
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
