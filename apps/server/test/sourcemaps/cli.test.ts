import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CreatedWriteTokenSchema, SourcemapReleaseListSchema } from '@polyflow/contracts/sourcemaps';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/client.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { type Bundle, buildBundle } from './bundle.ts';

const CLI = path.resolve(import.meta.dirname, '../../../../packages/cli/bin/polyflow.mjs');

type Run = { code: number; stdout: string; stderr: string };

/** `polyflow …` as a CI job runs it: a child process with its own environment. */
async function polyflow(args: string[], env: Record<string, string> = {}): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The CLI against a listening server: uploads a real bundle's maps, says what it did, and why it failed. */
describe('polyflow sourcemaps upload', () => {
  let test: TestApp;
  let owner: SeededUser;
  let projectId: string;
  let url: string;
  let token: string;
  let root: string;
  let bundle: Bundle;

  beforeAll(async () => {
    test = await startTestApp('sqlite');
    const seeded = await seed(test.services).user().verified().project('Dapp');
    owner = seeded.user;
    projectId = seeded.project.id;
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
    const created = await apiClient(test.app).post(`projects/${projectId}/write-tokens`, {
      token: owner.token,
      body: { name: 'CI' },
    });
    token = CreatedWriteTokenSchema.parse(created.json()).token;
    root = mkdtempSync(path.join(os.tmpdir(), 'polyflow-cli-'));
    bundle = await buildBundle(root, 0);
  });
  afterAll(async () => {
    await test?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('uploads every .map of the directory under the URL prefix, with progress', async () => {
    const run = await polyflow(
      [
        'sourcemaps',
        'upload',
        '--release',
        'v1.2.3',
        '--url-prefix',
        '~/assets',
        '--url',
        url,
        '--project',
        projectId,
        path.join(bundle.dir, 'dist', 'assets'),
      ],
      { POLYFLOW_TOKEN: token },
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`Uploading 1 source map (`);
    expect(run.stdout).toContain(`[1/1] 1 map`);
    expect(run.stdout).toContain(`${bundle.file}.map`);
    // The file the map is for, which an error's frame URL must match.
    expect(run.stdout).toContain(`maps the frames of ~/assets/${bundle.file}\n`);
    expect(run.stdout).toContain('Done: release v1.2.3 holds');
    const listed = await apiClient(test.app).get(`projects/${projectId}/releases/sourcemaps`, {
      token: owner.token,
    });
    expect(SourcemapReleaseListSchema.parse(listed.json()).releases).toMatchObject([
      { release: 'v1.2.3', files: 1 },
    ]);
  });

  it('says why it failed: wrong usage (exit 2), refused token or unreachable server (exit 1)', async () => {
    const dir = path.join(bundle.dir, 'dist', 'assets');
    const common = ['--url-prefix', '~/assets', '--url', url, '--project', projectId, dir];
    const noRelease = await polyflow(['sourcemaps', 'upload', ...common], { POLYFLOW_TOKEN: token });
    expect(noRelease.code).toBe(2);
    expect(noRelease.stderr).toContain('--release is required.');
    const badRelease = await polyflow(['sourcemaps', 'upload', '--release', 'x'.repeat(65), ...common], {
      POLYFLOW_TOKEN: token,
    });
    expect(badRelease.code).toBe(2);
    // An unquoted ~/assets, as the shell hands it over: refused before anything is sent, with the fix.
    const expanded = await polyflow(
      [
        'sourcemaps',
        'upload',
        '--release',
        'v2',
        ...common.map((arg) => (arg === '~/assets' ? '/home/ci/assets' : arg)),
      ],
      { POLYFLOW_TOKEN: token, HOME: '/home/ci' },
    );
    expect(expanded.code).toBe(2);
    expect(expanded.stderr).toContain(
      "--url-prefix /home/ci/assets is your home directory: the shell expanded ~. Quote it: --url-prefix '~/assets'.",
    );
    const refused = await polyflow(['sourcemaps', 'upload', '--release', 'v2', ...common], {
      POLYFLOW_TOKEN: `pfw_${'a'.repeat(40)}`,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'Upload refused (401) BAD_AUTHENTICATION: Unknown or revoked write token.',
    );
    const noMaps = await polyflow(
      [
        'sourcemaps',
        'upload',
        '--release',
        'v2',
        '--url-prefix',
        '~/',
        '--url',
        url,
        '--project',
        projectId,
        path.join(bundle.dir, 'src'),
      ],
      { POLYFLOW_TOKEN: token },
    );
    expect(noMaps.code).toBe(1);
    expect(noMaps.stderr).toContain('No .map files under');
    const unreachable = await polyflow(
      [
        'sourcemaps',
        'upload',
        '--release',
        'v2',
        '--url-prefix',
        '~/assets',
        '--url',
        'http://127.0.0.1:1',
        '--project',
        projectId,
        dir,
      ],
      { POLYFLOW_TOKEN: token },
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('Cannot reach http://127.0.0.1:1');
  });
});
