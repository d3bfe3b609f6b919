import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createSourcemaps } from '../../src/modules/sourcemaps/module.ts';
import type { SourcemapLimits, UploadedFile } from '../../src/modules/sourcemaps/service.ts';
import { ENGINES_BESIDE_EVENT_STORE, type TestApp, useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';

const KB = 1024;
const CLI = path.resolve(import.meta.dirname, '../../../../packages/cli/bin/polyflow.mjs');

/** A valid version 3 map of exactly `bytes` bytes (its sourcesContent padded). */
function mapOf(name: string, bytes: number): UploadedFile {
  const empty = '{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA","sourcesContent":[""]}';
  const padded = empty.replace('[""]', `["${'x'.repeat(bytes - empty.length)}"]`);
  return { name: `~/assets/${name}.js.map`, content: Buffer.from(padded) };
}

/**
 * The server's own source-map module on the test server's accounts store and DATA_DIR, with small limits:
 * the quotas are the operator's (config.sourcemapLimits), and a test cannot fill gigabytes of disk.
 */
function sourcemapsWith(t: TestApp, limits: Partial<SourcemapLimits>) {
  return createSourcemaps({
    db: t.services.db,
    dataDir: t.config.dataDir,
    projects: t.services.projects,
    clock: t.services.clock,
    audit: t.services.auditLog,
    limits,
  }).service;
}

const actorOf = (user: SeededUser) => ({ actor: { id: user.id, email: user.email, ip: '127.0.0.1' } });

/**
 * Round-39 finding: nothing bounded source maps across projects. One account could own 100 projects and
 * upload 100 releases × 50 MB to each (500 GB), filling the disk every tenant's events live on. Now the maps
 * of all the projects one account owns share a quota, an upload must leave a free-disk reserve, and a
 * refusal is 413 PAYLOAD_TOO_LARGE with nothing of the upload stored (docs/source-maps.md).
 */
describe.each(ENGINES_BESIDE_EVENT_STORE)('source-map storage limits across projects on %s', (engine) => {
  const t = useTestApp(engine);

  /** The files of the project's maps on disk. */
  const filesOf = (projectId: string): string[] => {
    try {
      return readdirSync(path.join(t.config.dataDir, 'sourcemaps', projectId));
    } catch {
      return [];
    }
  };

  async function accountWithProjects(count: number) {
    const user = await seed(t.services).user().verified();
    const projects: string[] = [];
    for (let index = 0; index < count; index += 1) {
      projects.push((await t.services.projects.createProject(actorOf(user).actor, `P${index}`)).id);
    }
    return { user, projects };
  }

  it("refuses an upload that takes an account's projects past its quota, storing nothing; another account is unaffected", async () => {
    const sourcemaps = sourcemapsWith(t, { accountMaxBytes: 100 * KB, minFreeDiskBytes: 0 });
    const { user, projects } = await accountWithProjects(2);
    const [first, second] = projects as [string, string];

    await sourcemaps.upload(actorOf(user), first, 'r1', [mapOf('a', 40 * KB), mapOf('b', 30 * KB)]);
    const refused = sourcemaps.upload(actorOf(user), second, 'r1', [mapOf('c', 40 * KB)]);
    await expect(refused).rejects.toMatchObject({
      status: 413,
      errorCode: 'PAYLOAD_TOO_LARGE',
      message: expect.stringMatching(
        /hold 70 KB .*this upload \(40 KB\).*limit of 100 KB.*Nothing of this upload/,
      ),
    });
    expect((await sourcemaps.releaseList(user.id, second)).releases).toEqual([]);
    expect(filesOf(second)).toEqual([]);
    expect(filesOf(first)).toHaveLength(2);

    // Within the quota once the maps it replaces are counted out: the same URL again, the same size.
    const replaced = await sourcemaps.upload(actorOf(user), first, 'r1', [mapOf('a', 40 * KB)]);
    expect(replaced.releaseBytes).toBe(70 * KB);
    expect(filesOf(first)).toHaveLength(2);
    // And up to the quota exactly.
    await sourcemaps.upload(actorOf(user), second, 'r1', [mapOf('c', 30 * KB)]);

    // Another account's uploads count against its own quota only.
    const other = await seed(t.services).user().verified().project('Other');
    const stored = await sourcemaps.upload(actorOf(other.user), other.project.id, 'r1', [
      mapOf('a', 90 * KB),
    ]);
    expect(stored.releaseBytes).toBe(90 * KB);
  });

  it('lets only one of several uploads at once through when any two of them pass the quota', async () => {
    const sourcemaps = sourcemapsWith(t, { accountMaxBytes: 100 * KB, minFreeDiskBytes: 0 });
    // Several rounds, each a new account: how the transactions interleave varies from one run to the next.
    for (let round = 0; round < 4; round += 1) {
      const { user, projects } = await accountWithProjects(8);
      const results = await Promise.allSettled(
        projects.map((projectId) => sourcemaps.upload(actorOf(user), projectId, 'r1', [mapOf('a', 60 * KB)])),
      );
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      for (const result of results) {
        if (result.status === 'rejected') {
          expect(result.reason).toMatchObject({ status: 413, errorCode: 'PAYLOAD_TOO_LARGE' });
        }
      }
      const stored = await Promise.all(
        projects.map(async (projectId) => ({
          releases: (await sourcemaps.releaseList(user.id, projectId)).releases.length,
          files: filesOf(projectId).length,
        })),
      );
      expect(stored.filter((project) => project.releases > 0 || project.files > 0)).toEqual([
        { releases: 1, files: 1 },
      ]);
    }
  });

  it("refuses an upload that would leave less than the free-disk reserve on DATA_DIR's disk, storing nothing", async () => {
    const { user, projects } = await accountWithProjects(1);
    const projectId = projects[0] as string;
    const stats = await statfs(t.config.dataDir);
    const freeBytes = stats.bavail * stats.bsize;
    const reserved = sourcemapsWith(t, { minFreeDiskBytes: freeBytes + 1024 * 1024 * 1024 });
    await expect(reserved.upload(actorOf(user), projectId, 'r1', [mapOf('a', 4 * KB)])).rejects.toMatchObject(
      {
        status: 413,
        errorCode: 'PAYLOAD_TOO_LARGE',
        message: expect.stringMatching(/short of disk space.*Nothing of this upload was stored/),
      },
    );
    expect((await reserved.releaseList(user.id, projectId)).releases).toEqual([]);
    expect(filesOf(projectId)).toEqual([]);

    const roomy = sourcemapsWith(t, { minFreeDiskBytes: 0 });
    await roomy.upload(actorOf(user), projectId, 'r1', [mapOf('a', 4 * KB)]);
    expect(filesOf(projectId)).toHaveLength(1);
  });
});

/** A multipart body of `.map` files, as the CLI sends it. */
async function multipart(files: UploadedFile[]) {
  const form = new FormData();
  for (const file of files) form.append('file', new Blob([file.content]), file.name);
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type') as string,
  };
}

/** The operator's limits (SOURCEMAP_ACCOUNT_MAX_MB, SOURCEMAP_MIN_FREE_DISK_MB) reach the upload route. */
describe('the configured source-map limits, over HTTP and in the CLI', () => {
  const t = useTestApp('sqlite', { sourcemapLimits: { accountMaxBytes: 100 * KB, minFreeDiskBytes: 0 } });

  it('reads them from the environment, in MB, with 5 GB and 1 GB by default', () => {
    const env = { DATA_DIR: t.config.dataDir, JWT_SECRET: 'x'.repeat(32) };
    expect(loadConfig(env).sourcemapLimits).toEqual({
      accountMaxBytes: 5120 * 1024 * 1024,
      minFreeDiskBytes: 1024 * 1024 * 1024,
    });
    expect(
      loadConfig({ ...env, SOURCEMAP_ACCOUNT_MAX_MB: '200', SOURCEMAP_MIN_FREE_DISK_MB: '0' })
        .sourcemapLimits,
    ).toEqual({ accountMaxBytes: 200 * 1024 * 1024, minFreeDiskBytes: 0 });
    expect(() => loadConfig({ ...env, SOURCEMAP_ACCOUNT_MAX_MB: '0' })).toThrow(/SOURCEMAP_ACCOUNT_MAX_MB/);
  });

  it("answers 413 {errorCode, message} past the account's quota, and the CLI prints the message", async () => {
    const user = await seed(t.services).user().verified();
    const actor = actorOf(user).actor;
    const first = await t.services.projects.createProject(actor, 'Shop');
    const second = await t.services.projects.createProject(actor, 'Wallet');
    const upload = async (projectId: string, files: UploadedFile[]) => {
      const body = await multipart(files);
      return t.app.inject({
        method: 'POST',
        url: `/api/v1/projects/${projectId}/releases/r1/sourcemaps`,
        headers: { authorization: `Bearer ${user.token}`, 'content-type': body.contentType },
        payload: body.payload,
      });
    };
    expect((await upload(first.id, [mapOf('a', 70 * KB)])).statusCode).toBe(201);
    const refused = await upload(second.id, [mapOf('a', 40 * KB)]);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({
      errorCode: 'PAYLOAD_TOO_LARGE',
      message: expect.stringContaining("would pass the account's limit of 100 KB. Nothing of this upload"),
    });
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${second.id}/releases/sourcemaps`,
      headers: { authorization: `Bearer ${user.token}` },
    });
    // Nothing stored; the list says how much of the account's limit is used (the first project's 70 KB).
    expect(listed.json()).toEqual({ releases: [], account: { bytes: 70 * KB, maxBytes: 100 * KB } });

    // The CLI, as a CI job runs it, says why.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-quota-cli-'));
    try {
      const map = mapOf('index', 40 * KB);
      writeFileSync(path.join(dir, 'index.js.map'), map.content);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const run = await promisify(execFile)(
        process.execPath,
        [CLI, 'sourcemaps', 'upload', '--release', 'r2', '--url-prefix', '~/assets', '--url', url, dir],
        { env: { PATH: process.env.PATH ?? '', POLYFLOW_TOKEN: user.token, POLYFLOW_PROJECT: second.id } },
      ).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /Upload refused \(413\) PAYLOAD_TOO_LARGE: The projects of this project's owner hold 70 KB/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
