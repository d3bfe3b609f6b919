/**
 * `npm run docs:openapi`: writes the OpenAPI 3.1 document the server serves at /api/v1/openapi.json to
 * docs/openapi.json, which the documentation site renders as its REST reference (a test fails when the
 * file and the server disagree).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';

export const OPENAPI_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../docs/openapi.json',
);

/**
 * The document as served, by a server with every optional route on (`/metrics` needs METRICS_TOKEN).
 * `environment` is added to the defaults; `onRoute` sees every route Fastify registers.
 */
export async function servedOpenApi(
  onRoute?: Parameters<typeof buildApp>[1] extends infer O
    ? O extends { onRoute?: infer R }
      ? R
      : never
    : never,
): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-openapi-'));
  try {
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      METRICS_TOKEN: 'openapi-document-token',
    });
    const app = await buildApp(config, { onRoute });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
      return response.json() as Record<string, unknown>;
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const formatOpenApi = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OPENAPI_FILE, formatOpenApi(await servedOpenApi()));
  console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
}
