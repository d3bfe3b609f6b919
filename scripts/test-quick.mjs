#!/usr/bin/env node
// `npm run test:quick`: the edit–test loop. For the workspaces a change touches (against the branch's
// merge base with main, plus uncommitted and untracked files): their type check, Biome on the touched files,
// and their vitest tests that import a touched file (vitest's own `--changed`). `npm test` runs everything.
//
//   npm run test:quick                  what this branch and the working tree changed since main
//   npm run test:quick -- --base HEAD   only what is not committed yet
//   npm run test:quick -- --all         the touched workspaces' whole vitest projects
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const all = args.includes('--all');
const baseArg = args.includes('--base') ? args[args.indexOf('--base') + 1] : undefined;

// Each workspace: the path that holds it, its tsc projects (a contracts change is type-checked by the
// workspaces that import it too), its vitest projects, and test files that read it without importing it.
export const WORKSPACES = [
  {
    dir: 'packages/contracts/',
    tsc: ['packages/contracts', 'apps/server', 'apps/console', 'packages/sdk'],
    vitest: [],
  },
  { dir: 'packages/sdk/', tsc: ['packages/sdk'], vitest: ['sdk'] },
  { dir: 'apps/server/src/modules/event-store/clickhouse/', tsc: [], vitest: ['server-clickhouse'] },
  { dir: 'apps/server/', tsc: ['apps/server'], vitest: ['server'] },
  { dir: 'apps/console/', tsc: ['apps/console'], vitest: ['console'] },
  { dir: 'e2e/', tsc: ['e2e'], vitest: [] },
  { dir: 'scripts/', tsc: [], vitest: ['scripts'] },
  { dir: 'docs/', tsc: [], vitest: [], files: ['scripts/docs-records.test.mjs'] },
];

function git(...gitArgs) {
  const result = spawnSync('git', gitArgs, { cwd: root, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** The commit to compare with: `--base`, else the merge base with main (or origin/main), else HEAD. */
function baseCommit() {
  if (baseArg) return baseArg;
  for (const branch of ['main', 'origin/main']) {
    const base = git('merge-base', 'HEAD', branch);
    if (base) return base;
  }
  return 'HEAD';
}

/** The touched workspaces' tsc and vitest projects, and the touched files Biome checks. */
export function plan(files) {
  const tsc = new Set();
  const vitest = new Set();
  const testFiles = new Set();
  for (const file of files) {
    for (const workspace of WORKSPACES.filter(({ dir }) => file.startsWith(dir))) {
      for (const project of workspace.tsc) tsc.add(project);
      for (const project of workspace.vitest) vitest.add(project);
      for (const testFile of workspace.files ?? []) testFiles.add(testFile);
    }
  }
  const lint = files.filter((file) => /\.(ts|tsx|mts|js|mjs|cjs|jsx|json|css)$/.test(file));
  return { tsc: [...tsc], vitest: [...vitest], testFiles: [...testFiles], lint };
}

function run(command, commandArgs) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, commandArgs, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output, seconds: (Date.now() - started) / 1000 }));
  });
}

async function main() {
  const started = Date.now();
  const base = baseCommit();
  const files = [
    ...new Set([
      ...(git('diff', '--name-only', base) ?? '').split('\n'),
      ...(git('ls-files', '--others', '--exclude-standard') ?? '').split('\n'),
    ]),
  ].filter((file) => file && existsSync(path.join(root, file)));
  const { tsc, vitest, testFiles, lint } = plan(files);
  console.log(`test:quick: ${files.length} touched files since ${base.slice(0, 12)}`);
  if (files.length === 0) return console.log('nothing to check');

  const steps = [
    ...tsc.map((project) => ({ name: `tsc -p ${project}`, command: 'npx', args: ['tsc', '-p', project] })),
    ...(lint.length
      ? [
          {
            name: `biome check (${lint.length} files)`,
            command: 'npx',
            args: ['biome', 'check', '--no-errors-on-unmatched', ...lint],
          },
        ]
      : []),
  ];
  // Type checks and the linter in parallel, one per core; their output in order once they end.
  const results = [];
  for (let index = 0; index < steps.length; index += os.availableParallelism()) {
    const batch = steps.slice(index, index + os.availableParallelism());
    results.push(...(await Promise.all(batch.map(({ command, args }) => run(command, args)))));
  }
  let failed = false;
  steps.forEach((step, index) => {
    const { code, output, seconds } = results[index];
    console.log(`--- ${step.name} (${seconds.toFixed(1)} s): ${code === 0 ? 'ok' : 'FAILED'}`);
    if (code !== 0) {
      failed = true;
      process.stdout.write(output);
    }
  });
  const runs = [];
  if (vitest.length) {
    runs.push([...vitest.flatMap((project) => ['--project', project]), ...(all ? [] : ['--changed', base])]);
  }
  if (testFiles.length) runs.push(testFiles);
  for (const vitestArgs of runs) {
    console.log(`--- npx vitest run ${vitestArgs.join(' ')}`);
    const result = spawnSync('npx', ['vitest', 'run', ...vitestArgs, '--passWithNoTests'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (result.status !== 0) failed = true;
  }
  console.log(`test:quick: ${failed ? 'FAILED' : 'ok'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
