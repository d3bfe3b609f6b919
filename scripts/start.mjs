#!/usr/bin/env node
// `npm start`: installs npm packages when they are missing, builds what is missing or stale (SDK, console,
// server), then serves everything on one port. A fresh clone needs only `npm start`; later starts skip the
// install and the build and serve in about a second.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Newest modification time (ms) of any file under the given paths, skipping build output and dependencies. */
function newestMtime(paths) {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) {
        if (entry !== 'node_modules' && entry !== 'dist') visit(join(path, entry));
      }
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const path of paths) visit(join(root, path));
  return newest;
}

// `npm install`, not `npm ci`: the registry here serves only some platforms' optional packages (e.g. Biome's
// binaries), so the lock file lists only those and `npm ci` refuses it as out of sync; install honours it.
const installedLock = join(root, 'node_modules/.package-lock.json');
if (
  !existsSync(installedLock) ||
  statSync(join(root, 'package-lock.json')).mtimeMs > statSync(installedLock).mtimeMs
) {
  console.log('Installing npm packages …');
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('npm install failed; see the output above.');
    process.exit(result.status ?? 1);
  }
}

const builds = [
  {
    workspace: 'packages/sdk',
    output: 'packages/sdk/dist/polyflow.iife.js',
    sources: ['packages/sdk/src', 'packages/sdk/build.mjs'],
  },
  {
    workspace: 'apps/console',
    output: 'apps/console/dist/index.html',
    sources: [
      'apps/console/src',
      'apps/console/index.html',
      'apps/console/vite.config.ts',
      'packages/contracts/src',
    ],
  },
  {
    workspace: 'apps/server',
    output: 'apps/server/dist/main.js',
    sources: ['apps/server/src', 'apps/server/build.mjs', 'packages/contracts/src'],
  },
];

for (const { workspace, output, sources } of builds) {
  const outputPath = join(root, output);
  const isStale = !existsSync(outputPath) || newestMtime(sources) > statSync(outputPath).mtimeMs;
  if (!isStale) continue;
  console.log(`Building ${workspace} …`);
  const result = spawnSync('npm', ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`Build of ${workspace} failed; see the output above.`);
    process.exit(result.status ?? 1);
  }
}

await import(join(root, 'apps/server/dist/main.js'));
