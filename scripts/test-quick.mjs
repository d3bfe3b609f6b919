#!/usr/bin/env node
// `npm run test:quick`: the edit–test loop. For the workspaces a change touches (against the branch's
// merge base with main, plus uncommitted and untracked files): their type check (incremental), Biome on the
// touched files, and their tests: in the SDK, scripts/ and the console the tests that import a touched
// file (vitest's `--changed`), but for a change inside console features those features' tests and the
// boundary test; in the server, where nearly every test imports the whole app, the tests of the touched
// module (src/modules/incidents/… → test/incidents…), the touched test files and the architecture test. `npm test` runs everything, the ClickHouse suites included.
//
//   npm run test:quick                  what this branch and the working tree changed since main
//   npm run test:quick -- --base HEAD   only what is not committed yet
//   npm run test:quick -- --all         the touched workspaces' whole vitest projects (server-clickhouse too)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** TypeScript 7's compiler (the `typescript-7` package; `typescript` is 6, for the tools that load its API). */
const TSC = path.join(root, 'node_modules', 'typescript-7', 'bin', 'tsc');

// Each workspace: the path that holds it, its tsc projects (a contracts change is type-checked by the
// workspaces that import it too), its vitest project, and test files that read it without importing it.
const WORKSPACES = [
  { dir: 'packages/contracts/', tsc: ['packages/contracts', 'apps/server', 'apps/console', 'packages/sdk'] },
  { dir: 'packages/sdk/', tsc: ['packages/sdk'], vitest: 'sdk' },
  { dir: 'apps/server/', tsc: ['apps/server'], vitest: 'server' },
  { dir: 'apps/console/', tsc: ['apps/console'], vitest: 'console' },
  { dir: 'e2e/', tsc: ['e2e'] },
  { dir: 'scripts/', vitest: 'scripts' },
  { dir: 'docs/', files: ['scripts/docs-records.test.mjs'] },
  // The console's operation types are generated from the schema (apps/console/codegen.ts).
  { dir: 'docs/graphql-schema.graphql', tsc: ['apps/console'] },
];

const SERVER = 'apps/server/';
const SERVER_TESTS = `${SERVER}test/`;

/** The server tests a touched server file calls for: its module's tests, or itself when it is a test. */
function serverTestFilters(file) {
  if (file.startsWith(SERVER_TESTS)) {
    return /\.test\.ts$/.test(file) ? [file] : [];
  }
  // src/modules/<module>/…, src/<folder>/… or src/<file>.ts: test/<name> matches test/<name>/ and
  // test/<name>*.test.ts (auth → auth.test.ts, auth-sessions.test.ts).
  const inside = /^apps\/server\/src\/(?:modules\/)?([^/.]+)/.exec(file);
  return inside ? [`${SERVER_TESTS}${inside[1]}`] : [];
}

const CONSOLE_FEATURES = 'apps/console/src/features/';

/** The console tests a touched file of one feature calls for: that feature's tests (features import no other). */
function featureTestFilter(file) {
  const feature = /^apps\/console\/src\/features\/([^/]+)\//.exec(file);
  return feature ? `${CONSOLE_FEATURES}${feature[1]}/` : undefined;
}

/** What to run for the touched files: tsc projects, the files Biome checks, vitest runs (argument lists). */
export function plan(files, { base, all = false }) {
  const tsc = new Set();
  const projects = new Set();
  const extraFiles = new Set();
  const serverFilters = new Set();
  const featureFilters = new Set();
  let consoleOutsideFeatures = false;
  for (const file of files) {
    for (const workspace of WORKSPACES.filter(({ dir }) => file.startsWith(dir))) {
      for (const project of workspace.tsc ?? []) tsc.add(project);
      if (workspace.vitest) projects.add(workspace.vitest);
      for (const testFile of workspace.files ?? []) extraFiles.add(testFile);
    }
    if (file.startsWith(SERVER)) for (const filter of serverTestFilters(file)) serverFilters.add(filter);
    if (file.startsWith('apps/console/')) {
      const filter = featureTestFilter(file);
      if (filter) featureFilters.add(filter);
      else consoleOutsideFeatures = true;
    }
  }
  // The console's screens render most of the app, so vitest's module graph calls for nearly every console
  // test on any feature change: the touched features' own tests and the boundary test stand for it instead.
  const byFeature = !all && !consoleOutsideFeatures && featureFilters.size > 0;
  const runs = [];
  if (all) {
    if (projects.has('server')) projects.add('server-clickhouse');
    if (projects.size) runs.push([...projects].flatMap((project) => ['--project', project]));
  } else {
    const graphProjects = [...projects].filter(
      (project) => project !== 'server' && !(byFeature && project === 'console'),
    );
    if (graphProjects.length) {
      runs.push([...graphProjects.flatMap((project) => ['--project', project]), '--changed', base]);
    }
    if (projects.has('server')) {
      runs.push(['--project', 'server', `${SERVER_TESTS}architecture.test.ts`, ...serverFilters]);
    }
    if (byFeature) {
      runs.push([
        '--project',
        'console',
        'apps/console/src/app/feature-boundaries.test.ts',
        ...featureFilters,
      ]);
    }
  }
  if (extraFiles.size) runs.push([...extraFiles]);
  const lint = files.filter((file) => /\.(ts|tsx|mts|js|mjs|cjs|jsx|json|css)$/.test(file));
  return { tsc: [...tsc], lint, runs };
}

// tsc keeps what it learnt between runs here (outside what git and Biome see), so a later run checks only
// what changed and what depends on it.
function buildInfo(project) {
  return path.join(
    root,
    'node_modules',
    '.cache',
    'test-quick',
    `${project.replaceAll('/', '-')}.tsbuildinfo`,
  );
}

function git(...gitArgs) {
  const result = spawnSync('git', gitArgs, { cwd: root, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** The commit to compare with: `--base`, else the merge base with main (or origin/main), else HEAD. */
function baseCommit(baseArg) {
  if (baseArg) return baseArg;
  for (const branch of ['main', 'origin/main']) {
    const base = git('merge-base', 'HEAD', branch);
    if (base) return base;
  }
  return 'HEAD';
}

function run(command, commandArgs) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, commandArgs, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => resolve({ code, output, seconds: (Date.now() - started) / 1000 }));
  });
}

async function main(args) {
  const started = Date.now();
  const base = baseCommit(args.includes('--base') ? args[args.indexOf('--base') + 1] : undefined);
  const files = [
    ...new Set([
      ...(git('diff', '--name-only', base) ?? '').split('\n'),
      ...(git('ls-files', '--others', '--exclude-standard') ?? '').split('\n'),
    ]),
  ].filter((file) => file && existsSync(path.join(root, file)));
  console.log(`test:quick: ${files.length} touched files since ${base.slice(0, 12)}`);
  if (files.length === 0) return;
  const { tsc, lint, runs } = plan(files, { base, all: args.includes('--all') });

  // TypeScript 7, the native compiler, as `npm test` and `npm run typecheck` (ADR 172).
  const steps = tsc.map((project) => ({
    name: `tsc -p ${project}`,
    command: process.execPath,
    args: [TSC, '-p', project, '--incremental', '--tsBuildInfoFile', buildInfo(project)],
  }));
  if (lint.length) {
    steps.push({
      name: `biome check (${lint.length} files)`,
      command: 'npx',
      args: ['biome', 'check', '--no-errors-on-unmatched', ...lint],
    });
  }
  let failed = false;
  // The console's type check reads its operation types, generated first (npm run codegen -w apps/console).
  if (tsc.includes('apps/console')) {
    const { code, output, seconds } = await run('npm', ['run', 'codegen', '--silent', '-w', 'apps/console']);
    console.log(
      `--- codegen of the console's operation types (${seconds.toFixed(1)} s): ${code === 0 ? 'ok' : 'FAILED'}`,
    );
    if (code !== 0) {
      failed = true;
      process.stdout.write(output);
    }
  }
  // Type checks and the linter side by side, one per core; each one's output, in order, once it fails.
  const cores = os.availableParallelism();
  for (let index = 0; index < steps.length; index += cores) {
    const batch = steps.slice(index, index + cores);
    const results = await Promise.all(batch.map((step) => run(step.command, step.args)));
    batch.forEach((step, at) => {
      const { code, output, seconds } = results[at];
      console.log(`--- ${step.name} (${seconds.toFixed(1)} s): ${code === 0 ? 'ok' : 'FAILED'}`);
      if (code !== 0) {
        failed = true;
        process.stdout.write(output);
      }
    });
  }
  for (const vitestArgs of runs) {
    console.log(`--- vitest run ${vitestArgs.join(' ')}`);
    const result = spawnSync('npx', ['vitest', 'run', ...vitestArgs, '--passWithNoTests'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (result.status !== 0) failed = true;
  }
  console.log(`test:quick: ${failed ? 'FAILED' : 'ok'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
