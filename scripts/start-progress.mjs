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
 * The packages package-lock.json installs into node_modules (its `packages` keys) on this machine: not
 * workspaces or links, and optional ones only for this platform (npm skips the others), so that progress
 * can be told as "n of total" and agrees with npm's own count: npm prints nothing while it downloads and
 * unpacks when its output is not a terminal.
 */
export function lockedPackagePaths(
  root,
  machine = { platform: process.platform, arch: process.arch, libc: 'glibc' },
  { omitDev = false } = {},
) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const fitsMachine = (entry) =>
    fits(entry.os, machine.platform) && fits(entry.cpu, machine.arch) && fits(entry.libc, machine.libc);
  return Object.entries(lock.packages ?? {})
    .filter(([path, entry]) => path.includes('node_modules/') && !entry.link)
    .filter(([, entry]) => !(omitDev && entry.dev))
    .filter(([, entry]) => {
      // `devOptional`: a dev dependency that is also an optional one of a runtime package; without the dev
      // packages (`--omit=dev`) npm installs it only as that optional one, where the machine fits.
      const optional = entry.optional || (omitDev && entry.devOptional);
      return !optional || fitsMachine(entry);
    })
    .map(([path]) => path);
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
