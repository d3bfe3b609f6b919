import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { docsNotFound, isDocsPath } from './docs-site.ts';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Polyflow: console not built</title></head>
<body><h1>The console is not built yet</h1>
<p>Run <code>npm run build</code> in the repository, then restart the server. The API is up under /api.</p>
</body></html>`;

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/** A request for a file (has an extension), as opposed to a client-side route like /console/abc/config. */
function looksLikeFile(url: string): boolean {
  const pathname = url.split('?', 1)[0] ?? '';
  return path.posix.extname(pathname) !== '';
}

function notFound(reply: FastifyReply) {
  return reply.status(404).send({ errorCode: 'RESOURCE_NOT_FOUND', message: 'Resource not found.' });
}

/**
 * Serves the built console (looked up per request, so a rebuild needs no restart) from `consoleDir`; any other GET that is not under /api and not a file gets
 * index.html so the SPA's router can take over (deep links, reloads). Everything else is a JSON 404.
 */
export async function registerConsole(
  app: FastifyInstance,
  {
    consoleDir,
    docsDir,
    onPage,
  }: {
    consoleDir: string;
    docsDir: string;
    /** Told when the console's page (index.html, at `/` or a client-side route) is asked for. */
    onPage?: () => void;
  },
) {
  const isBuilt = existsSync(path.join(consoleDir, 'index.html'));
  if (onPage) {
    // Once the page has been sent: making what `onPage` makes must not delay it.
    app.addHook('onResponse', async (request) => {
      if (request.method !== 'GET') return;
      const url = request.raw.url ?? '/';
      if (!isApiPath(url) && !isDocsPath(url) && !looksLikeFile(url)) onPage();
    });
  }
  if (isBuilt) {
    await app.register(fastifyStatic, {
      root: consoleDir,
      index: ['index.html'],
      // Our own cache headers below; the plugin's default would be max-age=0 for everything.
      cacheControl: false,
      setHeaders(res, filePath) {
        // Vite puts content hashes in asset names, so they never change; index.html always may.
        const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.raw.url ?? '/';
    const isPageRequest = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(url);
    if (isPageRequest && isDocsPath(url)) return docsNotFound(reply, docsDir);
    if (!isPageRequest || looksLikeFile(url)) return notFound(reply);
    if (!isBuilt) return reply.status(503).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
