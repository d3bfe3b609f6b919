// What `npm start` prints while a first start installs and builds (scripts/start.mjs), kept apart so that
// its arithmetic is tested (scripts/start-progress.test.mjs, vitest project `scripts`).
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** "42 s", "3 min 05 s". */
export function formatDuration(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

const fits = (allowed, value) => !allowed || allowed.includes(value);

/**
 * The packages package-lock.json installs into node_modules (its `packages` keys) on this machine, so that
 * progress can be told as "n of total" and reaches the total: npm prints nothing while it downloads and
 * unpacks when its output is not a terminal. Found as npm finds them: from the root and the workspaces
 * through each package's dependencies (resolved in the nearest node_modules up the tree), with the root's
 * and workspaces' devDependencies unless `omitDev` (`npm install --omit=dev`), peers unless optional, and
 * optional dependencies only where they fit this machine (os, cpu, libc); so neither another platform's
 * binaries nor the packages only they depend on (e.g. the WebAssembly fallbacks' runtime) are counted.
 */
export function lockedPackagePaths(
  root,
  machine = { platform: process.platform, arch: process.arch, libc: 'glibc' },
  { omitDev = false } = {},
) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const packages = lock.packages ?? {};
  const fitsMachine = (entry) =>
    fits(entry.os, machine.platform) && fits(entry.cpu, machine.arch) && fits(entry.libc, machine.libc);
  /** Where `name`, required by the package at `from`, is installed: the nearest node_modules up the tree. */
  const resolve = (from, name) => {
    let base = from;
    for (;;) {
      const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
      if (packages[candidate]) return candidate;
      if (!base) return undefined;
      const at = base.lastIndexOf('/node_modules/');
      base = at === -1 ? '' : base.slice(0, at);
    }
  };
  const found = new Set();
  const visited = new Set();
  const visit = (key, isProject) => {
    if (visited.has(key)) return;
    visited.add(key);
    const entry = packages[key];
    if (!entry) return;
    if (entry.link) return visit(entry.resolved, true);
    const optional = new Set(Object.keys(entry.optionalDependencies ?? {}));
    const peers = Object.keys(entry.peerDependencies ?? {}).filter(
      (name) => !entry.peerDependenciesMeta?.[name]?.optional,
    );
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...optional,
      ...peers,
      ...(isProject && !omitDev ? Object.keys(entry.devDependencies ?? {}) : []),
    ];
    for (const name of names) {
      const target = resolve(key, name);
      if (!target) continue;
      const dependency = packages[target];
      if ((optional.has(name) || dependency.optional) && !fitsMachine(dependency)) continue;
      if (!dependency.link) found.add(target);
      visit(target, false);
    }
  };
  visit('', true);
  for (const workspace of packages['']?.workspaces ?? []) visit(workspace, true);
  return Object.keys(packages).filter((key) => found.has(key));
}

/**
 * Whether node_modules already holds the packages of the tests, benches and example dapps (devDependencies,
 * e.g. after `npm test`): npm's record of what it installed lists vitest then. A first start installs only
 * what running needs (`--omit=dev`); a later install keeps what is there.
 */
export function hasDevPackages(root) {
  const installed = join(root, 'node_modules/.package-lock.json');
  if (!existsSync(installed)) return false;
  const lock = JSON.parse(readFileSync(installed, 'utf8'));
  return Boolean(lock.packages?.['node_modules/vitest']);
}

/** A compiler or native-build tool: its working directory names the package being built. */
const COMPILING = /(^|\/)(node-gyp|make|cc1plus|cc1|g\+\+|gcc|c\+\+)(\0|$)|node-gyp/;
const DOWNLOADING = /prebuild-install|node-pre-gyp/;

/**
 * The packages whose install scripts run now, from the processes working inside `root`/node_modules
 * (Linux /proc; elsewhere nothing is found): [{ name, compiling }]. `compiling` means a C/C++ build from
 * source, which takes minutes where the prebuilt binary cannot be downloaded (better-sqlite3 without
 * internet access to GitHub's releases).
 */
export function runningInstallScripts(root, proc = '/proc') {
  const modules = `${join(root, 'node_modules')}/`;
  const found = new Map();
  let pids = [];
  try {
    pids = readdirSync(proc).filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  for (const pid of pids) {
    let cwd;
    let command;
    try {
      cwd = readlinkSync(join(proc, pid, 'cwd'));
      command = readFileSync(join(proc, pid, 'cmdline'), 'utf8');
    } catch {
      continue;
    }
    if (!cwd.startsWith(modules)) continue;
    const parts = cwd.slice(modules.length).split('/');
    const name = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
    if (!name) continue;
    const compiling = COMPILING.test(command) && !DOWNLOADING.test(command);
    found.set(name, (found.get(name) ?? false) || compiling);
  }
  return [...found]
    .map(([name, compiling]) => ({ name, compiling }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** What the install is doing once every package is unpacked, for the progress line. */
export function installScriptsPhase(running) {
  const compiling = running.filter(({ compiling }) => compiling).map(({ name }) => name);
  if (compiling.length > 0) {
    return ` (compiling ${compiling.join(', ')} from source: its prebuilt binary could not be downloaded; this takes several minutes on a slow or busy machine)`;
  }
  if (running.length > 0)
    return ` (running the install scripts of ${running.map(({ name }) => name).join(', ')})`;
  return ' (all unpacked; running install scripts such as native modules)';
}

/** How many of the locked packages are in place: { installed, total }. */
export function installProgress(root, paths) {
  let installed = 0;
  for (const path of paths) if (existsSync(join(root, path, 'package.json'))) installed += 1;
  return { installed, total: paths.length };
}

/** One line of progress: "[1/4] Installing npm packages: 312 of 618 (50 %), 1 min 10 s so far". */
export function progressLine({ step, steps, what, done, total, elapsedMs }) {
  const shown = Math.min(done, total);
  const count = total > 0 ? `: ${shown} of ${total} (${Math.floor((100 * shown) / total)} %)` : '';
  return `[${step}/${steps}] ${what}${count}, ${formatDuration(elapsedMs)} so far`;
}
