// What `npm start` prints while a first start installs and builds (scripts/start.mjs), kept apart so that
// its arithmetic is tested (scripts/start-progress.test.mjs, vitest project `scripts`).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** "42 s", "3 min 05 s". */
export function formatDuration(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/**
 * The packages package-lock.json installs into node_modules (its `packages` keys), so that progress can
 * be told as "n of total": npm prints nothing while it downloads and unpacks when its output is not a terminal.
 */
export function lockedPackagePaths(root) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  return Object.entries(lock.packages ?? {})
    .filter(([path, entry]) => path.includes('node_modules/') && !entry.link && !entry.optional)
    .map(([path]) => path);
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
