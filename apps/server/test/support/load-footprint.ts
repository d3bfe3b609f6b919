// Run by test/startup-footprint.test.ts in a process of its own, bundled as dist/server.js is: loads the
// server's modules (src/app.ts), starts a server on a DATA_DIR a first start made (as a server restarts), and prints
// as JSON what that did: the Intl formatters made and `localeCompare` calls (each reads ICU's data from
// the `node` binary), whether `@clickhouse/client`, graphql-js or mercurius were loaded; then whether the
// first GraphQL request (or, with --page, the console's page) loads the GraphQL endpoint.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const FORMATTERS = [
  'NumberFormat',
  'DateTimeFormat',
  'Collator',
  'PluralRules',
  'RelativeTimeFormat',
] as const;
const made: string[] = [];
for (const name of FORMATTERS) {
  const original = Intl[name];
  const counted = new Proxy(original, {
    construct(target, args) {
      made.push(`${name}(${JSON.stringify(args)})`);
      return Reflect.construct(target, args);
    },
  });
  Object.assign(Intl, { [name]: counted });
}
const localeCompare = String.prototype.localeCompare;
String.prototype.localeCompare = function (this: string, ...args: Parameters<typeof localeCompare>) {
  made.push(`localeCompare(${JSON.stringify(args[0])})`);
  return localeCompare.apply(this, args);
};

const loaded = (name: string) =>
  Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes(`/node_modules/${name}/`));
const graphqlLoaded = () => loaded('graphql') || loaded('mercurius');

const { buildApp } = await import('../../src/app.ts');
const { loadConfig } = await import('../../src/config.ts');
const modules = Object.keys(createRequire(import.meta.url).cache).length;
const formattersAtLoad = [...made];
const clickhouseDriver = loaded('@clickhouse/client');

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-footprint-'));
const config = (name: string) => loadConfig({ DATA_DIR: path.join(dataDir, name), LOG_LEVEL: 'silent' });
const report: Record<string, unknown> = { modules, formattersAtLoad, clickhouseDriver };
try {
  // A later start, as the benches' and most starts are: the store has run its migrations already.
  await (await buildApp(config('store'))).close();
  const before = made.length;
  const app = await buildApp(config('store'));
  await app.inject({ method: 'GET', url: '/api/v1/health' });
  report.madeByStart = made.slice(before);
  report.graphqlAtStart = graphqlLoaded();
  if (process.argv.includes('--page')) {
    // The console's page (a client-side route): the endpoint is made in the background meanwhile.
    await app.inject({ method: 'GET', url: '/projects' });
    const deadline = Date.now() + 20_000;
    while (!graphqlLoaded() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    report.graphqlAfterPage = graphqlLoaded();
  }
  const answer = await app.inject({
    method: 'POST',
    url: '/api/graphql',
    headers: { 'content-type': 'application/json' },
    payload: { query: '{ health }' },
  });
  report.firstQuery = answer.body;
  report.graphqlAfterQuery = graphqlLoaded();
  await app.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(report));
process.exit(0);
