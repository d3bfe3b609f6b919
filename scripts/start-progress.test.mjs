import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  formatDuration,
  hasDevPackages,
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
      '': {
        name: 'polyflow',
        workspaces: ['apps/server'],
        devDependencies: { '@biomejs/biome': '^2.0.0' },
      },
      'apps/server': { name: '@polyflow/server', dependencies: { zod: '^4', fastify: '^5' } },
      'node_modules/@polyflow/server': { link: true, resolved: 'apps/server' },
      'node_modules/zod': { version: '4.0.0' },
      'node_modules/fastify': { version: '5.0.0', dependencies: { semver: '^7' } },
      'node_modules/fastify/node_modules/semver': { version: '7.0.0' },
      'node_modules/@biomejs/biome': {
        version: '2.0.0',
        dev: true,
        optionalDependencies: {
          '@biomejs/cli-darwin-arm64': '2.0.0',
          '@biomejs/cli-linux-x64': '2.0.0',
          '@biomejs/cli-linux-x64-musl': '2.0.0',
        },
      },
      'node_modules/@biomejs/cli-darwin-arm64': {
        version: '2.0.0',
        dev: true,
        optional: true,
        os: ['darwin'],
        cpu: ['arm64'],
      },
      'node_modules/@biomejs/cli-linux-x64': {
        version: '2.0.0',
        dev: true,
        optional: true,
        os: ['linux'],
        cpu: ['x64'],
        libc: ['glibc'],
      },
      'node_modules/@biomejs/cli-linux-x64-musl': {
        version: '2.0.0',
        dev: true,
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
      'node_modules/@biomejs/biome',
      'node_modules/@biomejs/cli-linux-x64',
    ]);
    // `npm install --omit=dev` (a first start): no test tools, nor their binaries.
    expect(lockedPackagePaths(root, linux, { omitDev: true })).toEqual([
      'node_modules/zod',
      'node_modules/fastify',
      'node_modules/fastify/node_modules/semver',
    ]);
    const paths = lockedPackagePaths(root, { platform: 'darwin', arch: 'arm64', libc: 'glibc' });
    expect(paths).toEqual([
      'node_modules/zod',
      'node_modules/fastify',
      'node_modules/fastify/node_modules/semver',
      'node_modules/@biomejs/biome',
      'node_modules/@biomejs/cli-darwin-arm64',
    ]);
    expect(installProgress(root, paths)).toEqual({ installed: 0, total: 5 });
    install(root, 'node_modules/zod');
    install(root, 'node_modules/fastify/node_modules/semver');
    expect(installProgress(root, paths)).toEqual({ installed: 2, total: 5 });
  });

  it('leaves out what only a package of another platform depends on, and finds the lock of a real install', () => {
    const root = fakeClone({
      '': { name: 'polyflow', dependencies: { '@tailwindcss/oxide': '^4' } },
      'node_modules/@tailwindcss/oxide': {
        version: '4.0.0',
        optionalDependencies: {
          '@tailwindcss/oxide-wasm32-wasi': '4.0.0',
          '@tailwindcss/oxide-linux-x64-gnu': '4.0.0',
        },
      },
      'node_modules/@tailwindcss/oxide-wasm32-wasi': {
        version: '4.0.0',
        optional: true,
        cpu: ['wasm32'],
        dependencies: { '@napi-rs/wasm-runtime': '^1' },
      },
      // No os or cpu of its own: only its dependent's decides that npm skips it.
      'node_modules/@napi-rs/wasm-runtime': { version: '1.0.0', optional: true },
      'node_modules/@tailwindcss/oxide-linux-x64-gnu': {
        version: '4.0.0',
        optional: true,
        os: ['linux'],
        cpu: ['x64'],
        libc: ['glibc'],
      },
    });
    expect(lockedPackagePaths(root, { platform: 'linux', arch: 'x64', libc: 'glibc' })).toEqual([
      'node_modules/@tailwindcss/oxide',
      'node_modules/@tailwindcss/oxide-linux-x64-gnu',
    ]);
  });

  it("knows whether the test tools are installed from npm's record of node_modules", () => {
    const root = fakeClone({});
    expect(hasDevPackages(root)).toBe(false);
    mkdirSync(join(root, 'node_modules'), { recursive: true });
    writeFileSync(
      join(root, 'node_modules/.package-lock.json'),
      JSON.stringify({ packages: { 'node_modules/zod': {} } }),
    );
    expect(hasDevPackages(root)).toBe(false);
    writeFileSync(
      join(root, 'node_modules/.package-lock.json'),
      JSON.stringify({ packages: { 'node_modules/vitest': { dev: true } } }),
    );
    expect(hasDevPackages(root)).toBe(true);
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
