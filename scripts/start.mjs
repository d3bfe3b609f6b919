#!/usr/bin/env node
// `npm start`: installs npm packages when they are missing, builds what is missing or stale (SDK, console,
// server), then serves everything on one port. A fresh clone needs only `npm start`; later starts skip the
// install and the build and serve in about a second. A first start says what it does, step by step, and
// how far it got every few seconds, so that nobody takes a minutes-long install for a hang.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  formatDuration,
  hasDevPackages,
  installProgress,
  installScriptsPhase,
  lockedPackagePaths,
  progressLine,
  runningInstallScripts,
} from './start-progress.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Seconds between progress lines while a step runs. */
const HEARTBEAT_MS = 10_000;

/** Build output, caches and dependencies: not sources. */
const SKIPPED = new Set(['node_modules', 'dist', 'cache', 'reference']);

/** Newest modification time (ms) of any file under the given paths, skipping build output and dependencies. */
function newestMtime(paths) {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) {
        if (!SKIPPED.has(entry)) visit(join(path, entry));
      }
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const path of paths) visit(join(root, path));
  return newest;
}

/** Runs a command with its output shown, printing `heartbeat()` every few seconds until it ends. */
function run(command, args, heartbeat) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    const timer = setInterval(() => console.log(heartbeat()), HEARTBEAT_MS);
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve(code ?? 1);
    });
  });
}

// Only what running needs: the packages of the tests, benches and example dapps (the workspaces'
// devDependencies: chdb, Playwright, viem, anvil, Biome, vitest, …) come with `npm test` (scripts/test.sh),
// which installs everything; once they are there, a later start's install keeps them.
const omitDev = !hasDevPackages(root);

// `npm install`, not `npm ci`: the registry here serves only some platforms' optional packages (e.g. Biome's
// binaries), so the lock file lists only those and `npm ci` refuses it as out of sync; install honours it.
const installedLock = join(root, 'node_modules/.package-lock.json');
const needsInstall =
  !existsSync(installedLock) ||
  statSync(join(root, 'package-lock.json')).mtimeMs > statSync(installedLock).mtimeMs;

const builds = [
  {
    workspace: 'packages/sdk',
    what: 'the browser SDK (packages/sdk)',
    output: 'packages/sdk/dist/polyflow.iife.js',
    sources: ['packages/sdk/src', 'packages/sdk/build.mjs'],
  },
  {
    workspace: 'apps/console',
    what: 'the console (apps/console, the longest build)',
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
    what: 'the server (apps/server)',
    output: 'apps/server/dist/main.js',
    sources: ['apps/server/src', 'apps/server/build.mjs', 'packages/contracts/src'],
  },
  {
    // Not needed to serve: built in the background once the server serves, so that it does not lengthen
    // a first start (/docs/ says it is being built meanwhile). `npm run build` builds it in line.
    script: 'build:docs',
    what: 'the documentation site (docs/, served at /docs/)',
    output: 'docs/.vitepress/dist/index.html',
    sources: ['docs', 'README.md', 'packages/sdk/README.md'],
    background: true,
  },
];
// Staleness is decided before installing: sources do not change during the install.
const staleBuilds = builds.filter(({ output, sources }) => {
  const outputPath = join(root, output);
  return !existsSync(outputPath) || newestMtime(sources) > statSync(outputPath).mtimeMs;
});

const backgroundBuilds = staleBuilds.filter(({ background }) => background);
const foregroundBuilds = staleBuilds.filter(({ background }) => !background);
const steps = (needsInstall ? 1 : 0) + foregroundBuilds.length;
const started = Date.now();
if (steps > 0) {
  console.log(
    needsInstall
      ? `First start: ${steps} steps (install the npm packages that running needs, then build). This usually takes` +
          ' under 2 minutes, most of it the download (longer on a slow network or a busy machine); the documentation' +
          ' is built in the background once the server serves; later starts take about a second.'
      : `Building what changed: ${steps} step${steps === 1 ? '' : 's'}, usually under a minute.`,
  );
}

let step = 0;
if (needsInstall) {
  step += 1;
  const packages = lockedPackagePaths(root, undefined, { omitDev });
  const stepStarted = Date.now();
  const line = () => {
    const { installed, total } = installProgress(root, packages);
    // npm unpacks nothing while it resolves and downloads, and runs the packages' install scripts (native
    // modules) only after the last one is unpacked: both can take minutes, so say which it is.
    const phase =
      installed === 0
        ? ' (resolving and downloading; npm unpacks them afterwards)'
        : installed >= total
          ? installScriptsPhase(runningInstallScripts(root))
          : '';
    const line = progressLine({
      step,
      steps,
      what: 'Installing npm packages',
      done: installed,
      total,
      elapsedMs: Date.now() - stepStarted,
    });
    return `${line}${phase}`;
  };
  console.log(
    `[${step}/${steps}] Installing ${packages.length} npm packages${omitDev ? ' (what running needs; `npm test` adds the test tools)' : ''} …`,
  );
  // Warnings (engine notices of dev tools) would bury the progress lines; errors still show.
  // No spinner either: on a terminal it prefixes our progress lines.
  const status = await run(
    'npm',
    [
      'install',
      ...(omitDev ? ['--omit=dev'] : []),
      '--no-audit',
      '--no-fund',
      '--no-progress',
      '--loglevel=error',
    ],
    line,
  );
  if (status !== 0) {
    console.error('npm install failed; see the output above.');
    process.exit(status);
  }
  console.log(`[${step}/${steps}] Installed npm packages in ${formatDuration(Date.now() - stepStarted)}.`);
}

for (const { workspace, what } of foregroundBuilds) {
  step += 1;
  const stepStarted = Date.now();
  console.log(`[${step}/${steps}] Building ${what} …`);
  const line = () =>
    progressLine({
      step,
      steps,
      what: `Building ${workspace}`,
      done: 0,
      total: 0,
      elapsedMs: Date.now() - stepStarted,
    });
  // Vite's per-module progress and asset table would bury our progress lines (and, on a terminal, glue
  // onto them): the console's build says only its warnings and errors here.
  const quiet = workspace === 'apps/console' ? ['--', '--logLevel', 'warn'] : [];
  const status = await run('npm', ['run', 'build', '--silent', '-w', workspace, ...quiet], line);
  if (status !== 0) {
    console.error(`Build of ${workspace} failed; see the output above.`);
    process.exit(status);
  }
  console.log(`[${step}/${steps}] Built ${workspace} in ${formatDuration(Date.now() - stepStarted)}.`);
}
if (steps > 0)
  console.log(`Installed and built in ${formatDuration(Date.now() - started)}; starting the server …`);

await import(join(root, 'apps/server/dist/main.js'));
announceWhenReady();
for (const { script, what } of backgroundBuilds) buildInBackground(script, what);

/**
 * Builds `npm run <script>` beside the running server, at low priority so that requests come first; says
 * when it starts and ends, and shows its output only if it fails.
 */
function buildInBackground(script, what) {
  const stepStarted = Date.now();
  console.log(`Building ${what} in the background; it is served once built (usually under a minute).`);
  const child = spawn('npm', ['run', script, '--silent'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    if (child.pid) os.setPriority(child.pid, 10);
  } catch {}
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  child.on('exit', (code) => {
    if (code === 0) {
      console.log(`Built ${what} in ${formatDuration(Date.now() - stepStarted)}.`);
    } else {
      console.error(`Building ${what} failed (npm run ${script}):\n${Buffer.concat(output).toString()}`);
    }
  });
}

/**
 * One plain line once the server answers, among its JSON log lines: where to open it. The server reads
 * the same PORT and HOST (defaults 3000 and 127.0.0.1); a start that fails says why itself and exits.
 */
function announceWhenReady() {
  const port = process.env.PORT ?? '3000';
  const host = process.env.HOST ?? '127.0.0.1';
  const probeHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const shown = process.env.PUBLIC_URL ?? `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  const probe = () =>
    fetch(`http://${probeHost.includes(':') ? `[${probeHost}]` : probeHost}:${port}/api/v1/health`)
      .then(() => console.log(`\nPolyflow is ready: open ${shown} (Ctrl+C stops it).\n`))
      .catch(() => {
        if (Date.now() < deadline) setTimeout(probe, 250).unref();
      });
  setTimeout(probe, 100).unref();
}
