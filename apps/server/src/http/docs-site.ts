import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="15"><title>Polyflow: documentation not built yet</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem">
<h1>The documentation is not built yet</h1>
<p>A first <code>npm start</code> builds it in the background once the server serves (about half a minute);
this page reloads by itself. Elsewhere, run <code>npm run build:docs</code>. Meanwhile the same pages are in
the repository's <code>docs/</code> folder.</p>
</body></html>`;

export const isDocsPath = (url: string) =>
  url === '/docs' || url.startsWith('/docs/') || url.startsWith('/docs?');

/**
 * The documentation site (VitePress, built into `docsDir` by `npm run build:docs`) at /docs/. Files are
 * looked up per request, so a site built after the server started (the first start builds it in the
 * background) is served without a restart.
 */
export async function registerDocsSite(app: FastifyInstance, { docsDir }: { docsDir: string }) {
  const policy = inlineScriptPolicy(docsDir);
  // After the global security headers (installed first): the same policy, plus VitePress's own inline
  // scripts (the colour scheme and platform checks before the page paints), allowed by their hashes.
  app.addHook('onRequest', (request, reply, done) => {
    if (isDocsPath(request.url)) reply.header('content-security-policy', policy());
    done();
  });
  // Not built yet on a first start: the folder the build fills, made now, so that the static plugin does not
  // warn a newcomer that its root "must exist" (the site is served once built, without a restart).
  try {
    mkdirSync(docsDir, { recursive: true });
  } catch {}
  await app.register(fastifyStatic, {
    root: docsDir,
    // Without its trailing slash: the plugin serves /docs/* all the same, and with `redirect` it adds
    // GET /docs → 301 /docs/ (query kept), which it leaves out for a prefix written '/docs/'.
    prefix: '/docs',
    decorateReply: false,
    redirect: true,
    index: ['index.html'],
    // A page's address without `.html` (/docs/wallets, as people type and share it) is the same page.
    extensions: ['html'],
    cacheControl: false,
    setHeaders(res, filePath) {
      // VitePress puts content hashes in asset names; pages may change with every build.
      const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('cache-control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

const BASE_POLICY = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

/**
 * The documentation's Content-Security-Policy: scripts from our origin, and the inline scripts the built
 * site's pages carry (the same in every page: VitePress's appearance and platform checks), by SHA-256.
 * Read from the built index.html, again whenever a build replaces it.
 */
export function inlineScriptPolicy(docsDir: string): () => string {
  let cached: { mtimeMs: number; policy: string } | undefined;
  return () => {
    const index = path.join(docsDir, 'index.html');
    let mtimeMs = -1;
    try {
      mtimeMs = statSync(index).mtimeMs;
    } catch {}
    if (cached?.mtimeMs === mtimeMs) return cached.policy;
    const html = mtimeMs === -1 ? '' : readFileSync(index, 'utf8');
    const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
      (match) =>
        `'sha256-${createHash('sha256')
          .update(match[1] ?? '')
          .digest('base64')}'`,
    );
    const policy = [`script-src 'self' ${hashes.join(' ')}`.trim(), ...BASE_POLICY].join('; ');
    cached = { mtimeMs, policy };
    return policy;
  };
}

/** A /docs/ URL with no file: the site's own 404 page, or a page saying it is being built. */
export function docsNotFound(reply: FastifyReply, docsDir: string) {
  if (!existsSync(path.join(docsDir, 'index.html'))) {
    return reply
      .status(503)
      .type('text/html; charset=utf-8')
      .header('retry-after', '15')
      .send(NOT_BUILT_PAGE);
  }
  const page = path.join(docsDir, '404.html');
  return reply
    .status(404)
    .type('text/html; charset=utf-8')
    .send(existsSync(page) ? readFileSync(page) : 'Not found.');
}
