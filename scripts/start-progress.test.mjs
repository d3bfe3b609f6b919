import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  formatDuration,
  installProgress,
  installScriptsPhase,
  lockedPackagePaths,
  progressLine,
  runningInstallScripts,
} from './start-progress.mjs';

const roots = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function fakeClone(lockPackages) {
  const root = mkdtempSync(join(tmpdir(), 'polyflow-start-'));
  roots.push(root);
  writeFileSync(join(root, 'package-lock.json'), JSON.stringify({ packages: lockPackages }));
  return root;
}

function install(root, path) {
  mkdirSync(join(root, path), { recursive: true });
  writeFileSync(join(root, path, 'package.json'), '{}');
}

describe('first-start progress', () => {
  it("counts the lock file packages that land in node_modules, not workspaces, links or other platforms' optional ones", () => {
    const root = fakeClone({
      '': { name: 'polyflow' },
      'apps/server': { name: '@polyflow/server' },
      'node_modules/@polyflow/server': { link: true, resolved: 'apps/server' },
      'node_modules/zod': { version: '4.0.0' },
      'node_modules/fastify': { version: '5.0.0' },
      'node_modules/fastify/node_modules/semver': { version: '7.0.0' },
      'node_modules/@biomejs/cli-darwin-arm64': {
        version: '2.0.0',
        optional: true,
        os: ['darwin'],
        cpu: ['arm64'],
      },
      'node_modules/@biomejs/cli-linux-x64': {
        version: '2.0.0',
        optional: true,
        os: ['linux'],
        cpu: ['x64'],
        libc: ['glibc'],
      },
      'node_modules/@biomejs/cli-linux-x64-musl': {
        version: '2.0.0',
        optional: true,
        os: ['linux'],
        cpu: ['x64'],
        libc: ['musl'],
      },
    });
    const linux = { platform: 'linux', arch: 'x64', libc: 'glibc' };
    expect(lockedPackagePaths(root, linux)).toEqual([
      'node_modules/zod',
      'node_modules/fastify',
      'node_modules/fastify/node_modules/semver',
      'node_modules/@biomejs/cli-linux-x64',
    ]);
    const paths = lockedPackagePaths(root, { platform: 'darwin', arch: 'arm64', libc: 'glibc' });
    expect(paths).toEqual([
      'node_modules/zod',
      'node_modules/fastify',
      'node_modules/fastify/node_modules/semver',
      'node_modules/@biomejs/cli-darwin-arm64',
    ]);
    expect(installProgress(root, paths)).toEqual({ installed: 0, total: 4 });
    install(root, 'node_modules/zod');
    install(root, 'node_modules/fastify/node_modules/semver');
    expect(installProgress(root, paths)).toEqual({ installed: 2, total: 4 });
  });

  it('says which step, how far and how long so far', () => {
    expect(
      progressLine({
        step: 1,
        steps: 4,
        what: 'Installing npm packages',
        done: 312,
        total: 618,
        elapsedMs: 70_400,
      }),
    ).toBe('[1/4] Installing npm packages: 312 of 618 (50 %), 1 min 10 s so far');
    expect(
      progressLine({ step: 3, steps: 4, what: 'Building apps/console', done: 0, total: 0, elapsedMs: 9_600 }),
    ).toBe('[3/4] Building apps/console, 10 s so far');
    // More on disk than the lock lists (a leftover) never reads as more than 100 %.
    expect(progressLine({ step: 1, steps: 1, what: 'x', done: 7, total: 5, elapsedMs: 0 })).toBe(
      '[1/1] x: 5 of 5 (100 %), 0 s so far',
    );
  });

  it('formats durations in seconds, then minutes', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(59_499)).toBe('59 s');
    expect(formatDuration(185_000)).toBe('3 min 05 s');
  });

  it('names the package whose install script compiles from source, from the processes working in node_modules', async () => {
    const root = fakeClone({});
    const packageDir = join(root, 'node_modules', 'native-thing');
    mkdirSync(packageDir, { recursive: true });
    mkdirSync(join(root, 'node_modules', '@scope', 'downloader'), { recursive: true });
    expect(runningInstallScripts(root)).toEqual([]);
    expect(installScriptsPhase([])).toBe(' (all unpacked; running install scripts such as native modules)');
    // Stand-ins with the command lines npm's install scripts run: node-gyp builds, prebuild-install downloads.
    const keepAlive = ['-e', 'setTimeout(() => {}, 20000)'];
    const children = [
      spawn(process.execPath, [...keepAlive, 'node-gyp', 'rebuild'], { cwd: packageDir }),
      spawn(process.execPath, [...keepAlive, 'prebuild-install'], {
        cwd: join(root, 'node_modules', '@scope', 'downloader'),
      }),
    ];
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const running = runningInstallScripts(root);
      expect(running).toEqual([
        { name: '@scope/downloader', compiling: false },
        { name: 'native-thing', compiling: true },
      ]);
      expect(installScriptsPhase(running)).toMatch(
        /^ \(compiling native-thing from source: its prebuilt binary could not be downloaded/,
      );
      expect(installScriptsPhase(running.slice(0, 1))).toBe(
        ' (running the install scripts of @scope/downloader)',
      );
    } finally {
      for (const child of children) child.kill();
    }
  });
});
