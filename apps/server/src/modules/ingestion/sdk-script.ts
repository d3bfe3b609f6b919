import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.ts';

export type SdkScriptOptions = { sdkScriptPath: string };

/**
 * `GET /sdk.js`: the SDK's IIFE build, for `<script src="…/sdk.js" data-api-key="…">` on any
 * dapp origin, and `GET /sdk-addon.js`: the add-on it imports on first need (`track`/`identify`, a submitted
 * transaction's lifecycle; ADR 068), the file beside it. Read from disk when they change (a rebuild needs no
 * restart), otherwise from memory.
 */
export async function sdkScriptRoute(
  app: FastifyInstance,
  { sdkScriptPath }: SdkScriptOptions,
): Promise<void> {
  serveFile(app, '/sdk.js', sdkScriptPath, {
    summary: 'The SDK for a script tag',
    description: '`<script src="https://POLYFLOW_HOST/sdk.js" data-api-key="…">`; see Getting started.',
    ok: 'The SDK script (ETag, revalidated).',
  });
  serveFile(app, '/sdk-addon.js', join(dirname(sdkScriptPath), 'polyflow-addon.esm.js'), {
    summary: "The SDK script's add-on",
    description:
      'An ES module that `/sdk.js` imports on the first `track`/`identify` or submitted transaction (ADR 068).',
    ok: 'The add-on module (ETag, revalidated).',
  });
}

function serveFile(
  app: FastifyInstance,
  url: string,
  filePath: string,
  docs: { summary: string; description: string; ok: string },
): void {
  let cached: { mtimeMs: number; body: Buffer; etag: string } | undefined;

  app.get(
    url,
    {
      config: {
        docs: {
          summary: docs.summary,
          description: docs.description,
          tag: 'Ingestion',
          auth: 'none',
          responses: {
            200: { description: docs.ok, contentTypes: ['text/javascript'] },
          },
        },
      },
    },
    async (request, reply) => {
      // Synchronous: a stat and a 4 KB read take microseconds, and libuv's pool, which the asynchronous
      // calls would queue on, is shared with DuckDB's queries (ADR 034): a dapp's page must not wait for them.
      let info: ReturnType<typeof statSync>;
      try {
        info = statSync(filePath);
      } catch {
        throw new AppError(
          503,
          'INTERNAL_ERROR',
          'The SDK script is not built on this server; run `npm run build -w packages/sdk`.',
        );
      }
      if (!cached || cached.mtimeMs !== info.mtimeMs) {
        const body = readFileSync(filePath);
        cached = {
          mtimeMs: info.mtimeMs,
          body,
          etag: `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
        };
      }
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        // Loaded by pages on other origins (the add-on as a module: CORS); the URL is not versioned, so caches
        // revalidate after 5 minutes.
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('access-control-allow-origin', '*')
        .header('cache-control', 'public, max-age=300, stale-while-revalidate=86400')
        .header('etag', cached.etag);
      if (request.headers['if-none-match'] === cached.etag) return reply.status(304).send();
      return reply.send(cached.body);
    },
  );
}
