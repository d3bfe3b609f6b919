import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IncidentDetailSchema, IncidentListSchema } from '@polyflow/contracts/incidents';
import {
  CreatedWriteTokenSchema,
  SourcemapReleaseListSchema,
  SourcemapUploadResultSchema,
} from '@polyflow/contracts/sourcemaps';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidentIdOf } from '../../src/modules/incidents/fingerprint.ts';
import { dataOf, graphqlClient } from '../analytics/graphql-client.ts';
import { pageView, postBatch } from '../ingestion/support.ts';
import { apiClient, errorOf } from '../support/client.ts';
import { ENGINES_BESIDE_EVENT_STORE, startTestApp, type TestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { type Bundle, buildBundle, THROW_LINE, throwIn } from './bundle.ts';
import { DETAIL, LIST } from './incident-queries.ts';

const SET_STATUS = `mutation Set($projectId: ID!, $id: ID!, $status: IncidentStatus!, $inNextRelease: Boolean) {
  setIncidentStatus(projectId: $projectId, id: $id, status: $status, inNextRelease: $inNextRelease) {
    id status isRegression resolvedInNextRelease resolvedInRelease
  }
}`;

/** A multipart body of `.map` files, as the CLI sends it. */
async function multipart(files: { name: string; content: string | Buffer }[]) {
  const form = new FormData();
  for (const file of files) form.append('file', new Blob([file.content]), file.name);
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type') as string,
  };
}

/**
 * Releases and source maps end to end on a real esbuild bundle (minified, with its map): a thrown error's
 * stack is shown mapped to the original file, line, function and context once the release's maps are
 * uploaded, two builds of the same code are one incident, "resolve in next release" is reopened by a new
 * release only, and every bad upload is refused with nothing stored.
 */
describe.each(ENGINES_BESIDE_EVENT_STORE)('releases and source maps on %s', (engine) => {
  let test: TestApp;
  let owner: SeededUser;
  let viewer: SeededUser;
  let projectId: string;
  let apiKey: string;
  let root: string;
  let builds: [Bundle, Bundle];
  let writeToken: string;
  const api = () => apiClient(test.app);
  const gql = (query: string, variables: Record<string, unknown>, token = owner.token) =>
    graphqlClient(test.app)(query, { projectId, ...variables }, { token });

  async function upload(
    release: string,
    files: { name: string; content: string | Buffer }[],
    token = writeToken,
  ) {
    const body = await multipart(files);
    return test.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${projectId}/releases/${encodeURIComponent(release)}/sourcemaps`,
      headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType },
      payload: body.payload,
    });
  }
  const mapOf = (bundle: Bundle) => ({
    name: `~/assets/${bundle.file}.map`,
    content: readFileSync(path.join(bundle.assets, `${bundle.file}.map`)),
  });
  /** An occurrence received now; `clientBehindMs`: the page's clock that far behind the server's. */
  async function throwFrom(bundle: Bundle, release: string, clientBehindMs = 0) {
    const { message, stack } = throwIn(bundle);
    test.clock.advance(1000);
    const ts = test.clock().getTime() - clientBehindMs;
    const response = await postBatch(test.app, {
      apiKey,
      release,
      events: [pageView({ ts, type: 'error', source: 'window', message, stack } as never)],
    });
    expect(response.statusCode).toBe(200);
    await test.services.events.flush();
  }
  const releasesNow = async () =>
    SourcemapReleaseListSchema.parse(
      (await api().get(`projects/${projectId}/releases/sourcemaps`, { token: owner.token })).json(),
    ).releases;
  const storedFiles = () => {
    try {
      return readdirSync(path.join(test.config.dataDir, 'sourcemaps', projectId)).sort();
    } catch {
      return [];
    }
  };
  const incidentIds = async (variables: Record<string, unknown> = {}) =>
    IncidentListSchema.parse(
      dataOf(await gql(LIST, { statuses: ['open', 'resolved'], ...variables })).incidents,
    ).rows;

  beforeAll(async () => {
    test = await startTestApp(engine);
    const seeded = await seed(test.services)
      .user()
      .verified()
      .project('Dapp')
      .apiKey()
      .domain('app.example.com');
    owner = seeded.user;
    projectId = seeded.project.id;
    apiKey = seeded.project.apiKey as string;
    viewer = (await seed(test.services).user().verified().project('Other')).user;
    root = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bundles-'));
    builds = [await buildBundle(root, 0), await buildBundle(root, 1)];
    const created = await api().post(`projects/${projectId}/write-tokens`, {
      token: owner.token,
      body: { name: 'CI' },
    });
    expect(created.statusCode).toBe(201);
    writeToken = CreatedWriteTokenSchema.parse(created.json()).token;
    expect(writeToken).toMatch(/^pfw_[0-9A-Za-z]{40}$/);
  });
  afterAll(async () => {
    await test?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('shows the original frame and context once the maps are uploaded; two builds are one incident', async () => {
    // Before any upload: the minified top frame groups it (build 1's function is `r`).
    await throwFrom(builds[0], '1.0.0');
    const minified = await incidentIds();
    expect(minified).toHaveLength(1);
    expect(minified[0]?.firstRelease).toBe('1.0.0');

    const uploaded = await upload('1.0.0', [mapOf(builds[0])]);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(SourcemapUploadResultSchema.parse(uploaded.json())).toMatchObject({
      release: '1.0.0',
      uploaded: [{ url: `~/assets/${builds[0].file}` }],
      deletedReleases: [],
    });

    await throwFrom(builds[0], '1.0.0');
    const original = 'window|amount missing for USDC|src/wallet.ts:formatAmount';
    const id = incidentIdOf(projectId, original);
    const detail = IncidentDetailSchema.parse(dataOf(await gql(DETAIL, { id })).incident);
    expect(detail.fingerprint).toBe(original);
    expect(detail.latest.release).toBe('1.0.0');
    const [top, caller] = detail.latest.frames ?? [];
    expect(top).toMatchObject({
      mapped: true,
      file: 'src/wallet.ts',
      function: 'formatAmount',
      line: THROW_LINE,
    });
    expect(top?.minified).toContain(`${builds[0].url}:1:`);
    expect(top?.context.map((line) => line.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(top?.context.find((line) => line.line === THROW_LINE)?.text).toContain(
      "throw new TypeError('amount missing for ' + order.token);",
    );
    expect(caller).toMatchObject({ mapped: true, file: 'src/wallet.ts', function: 'sendTokens' });

    // The second build (every minified name and column moved) in release 1.0.1, maps uploaded by an admin.
    const second = await upload('1.0.1', [mapOf(builds[1])], owner.token);
    expect(second.statusCode).toBe(201);
    await throwFrom(builds[1], '1.0.1');
    const rows = await incidentIds();
    expect(rows.map((row) => row.id).sort()).toEqual([id, minified[0]?.id].sort());
    expect(rows.find((row) => row.id === id)).toMatchObject({
      occurrences: 2,
      firstRelease: '1.0.0',
      lastRelease: '1.0.1',
    });

    // The release filter: only incidents with an occurrence from that release.
    expect((await incidentIds({ release: '1.0.1' })).map((row) => row.id)).toEqual([id]);
    expect((await incidentIds({ release: 'none-such' })).map((row) => row.id)).toEqual([]);
  });

  it('resolve in next release: the old release does not reopen it, a new one does', async () => {
    const id = incidentIdOf(projectId, 'window|amount missing for USDC|src/wallet.ts:formatAmount');
    const resolve = async () =>
      dataOf(await gql(SET_STATUS, { id, status: 'resolved', inNextRelease: true })).setIncidentStatus;
    expect(await resolve()).toMatchObject({
      status: 'resolved',
      resolvedInNextRelease: true,
      resolvedInRelease: '1.0.1',
    });
    // 1.0.2 is first received after the resolve: a regression by the server's receipt time, though this
    // page's clock is an hour behind (its occurrence's time is before the resolve, its only one since).
    await upload('1.0.2', [mapOf(builds[1])]);
    await throwFrom(builds[1], '1.0.2', 3_600_000);
    expect((await incidentIds()).find((row) => row.id === id)).toMatchObject({
      status: 'open',
      isRegression: true,
    });
    // Resolved again: old tabs still run 1.0.0, 1.0.1 and 1.0.2, all seen before it: still resolved.
    await resolve();
    await throwFrom(builds[0], '1.0.0');
    await throwFrom(builds[1], '1.0.1');
    await throwFrom(builds[1], '1.0.2');
    expect((await incidentIds()).find((row) => row.id === id)).toMatchObject({
      status: 'resolved',
      isRegression: false,
    });
    // 1.0.3 is first seen after this resolve: a regression.
    await upload('1.0.3', [mapOf(builds[1])]);
    await throwFrom(builds[1], '1.0.3');
    expect((await incidentIds()).find((row) => row.id === id)).toMatchObject({
      status: 'open',
      isRegression: true,
      lastRelease: '1.0.3',
    });
    // Plain resolve keeps today's rule: any later occurrence reopens it.
    dataOf(await gql(SET_STATUS, { id, status: 'resolved' }));
    await throwFrom(builds[0], '1.0.0');
    expect((await incidentIds()).find((row) => row.id === id)).toMatchObject({
      status: 'open',
      isRegression: true,
    });
  });

  it('refuses bad uploads with a clear 4xx and stores nothing', async () => {
    const before = { releases: await releasesNow(), files: storedFiles() };
    const good = mapOf(builds[0]);
    const refusals: [Awaited<ReturnType<typeof upload>>, number, string][] = [
      [
        await upload('2.0.0', [good, { name: '~/assets/x.js.map', content: 'not json' }]),
        400,
        'INVALID_SOURCE_MAP',
      ],
      [
        await upload('2.0.0', [
          { name: '~/assets/x.js.map', content: '{"version":2,"mappings":"","sources":[]}' },
        ]),
        400,
        'INVALID_SOURCE_MAP',
      ],
      [await upload('2.0.0', [{ name: '~/assets/x.js', content: good.content }]), 400, 'INVALID_SOURCE_MAP'],
      [
        await upload('2.0.0', [{ name: '~/../etc/x.js.map', content: good.content }]),
        400,
        'INVALID_SOURCE_MAP',
      ],
      [await upload('2.0.0\n', [good]), 400, 'INVALID_REQUEST_BODY'],
      [await upload('r'.repeat(65), [good]), 400, 'INVALID_REQUEST_BODY'],
      [
        await upload('2.0.0', [
          { name: '~/assets/big.js.map', content: Buffer.alloc(50 * 1024 * 1024 + 1, 32) },
        ]),
        413,
        'PAYLOAD_TOO_LARGE',
      ],
      [await upload('2.0.0', [good], `pfw_${'x'.repeat(40)}`), 401, 'BAD_AUTHENTICATION'],
      [await upload('2.0.0', [good], viewer.token), 404, 'RESOURCE_NOT_FOUND'],
    ];
    // A read token uploads nothing.
    const read = await api().post(`projects/${projectId}/read-tokens`, {
      token: owner.token,
      body: { name: 'BI' },
    });
    refusals.push([await upload('2.0.0', [good], read.json().token), 403, 'ACCESS_FORBIDDEN']);
    // Not multipart.
    const json = await test.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${projectId}/releases/2.0.0/sourcemaps`,
      headers: { authorization: `Bearer ${writeToken}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    refusals.push([json, 415, 'UNSUPPORTED_MEDIA_TYPE']);
    for (const [response, status, code] of refusals) {
      expect({ status: response.statusCode, code: errorOf(response).errorCode }).toEqual({ status, code });
    }
    expect({ releases: await releasesNow(), files: storedFiles() }).toEqual(before);
    // A write token does nothing else.
    const other = await api().get(`projects/${projectId}/read-tokens`, { token: writeToken });
    expect(other.statusCode).toBe(403);
  });

  it('keeps 100 releases per project, deleting the oldest first, files included', async () => {
    const tiny = {
      name: '~/assets/tiny.js.map',
      content: '{"version":3,"mappings":"AAAA","sources":["a.ts"],"names":[]}',
    };
    const existing = (await releasesNow()).length;
    let last: Awaited<ReturnType<typeof upload>> | undefined;
    for (let index = existing; index <= 100; index += 1) {
      test.clock.advance(1000);
      last = await upload(`bulk-${index}`, [tiny]);
      expect(last.statusCode).toBe(201);
    }
    expect(SourcemapUploadResultSchema.parse(last?.json()).deletedReleases).toEqual(['1.0.0']);
    const releases = await releasesNow();
    expect(releases).toHaveLength(100);
    expect(releases.map((release) => release.release)).not.toContain('1.0.0');
    expect(storedFiles()).toHaveLength(100);
  });

  it("takes the project's map files with it when the project is deleted", async () => {
    expect(storedFiles().length).toBeGreaterThan(0);
    const deleted = await api().delete(`projects/${projectId}`, { token: owner.token });
    expect(deleted.statusCode).toBe(204);
    expect(existsSync(path.join(test.config.dataDir, 'sourcemaps', projectId))).toBe(false);
  });
});
