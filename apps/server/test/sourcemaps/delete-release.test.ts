import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
import { DEFAULT_SOURCEMAP_ACCOUNT_MAX_BYTES } from '../../src/modules/sourcemaps/service.ts';
import { dataOf, graphqlClient } from '../analytics/graphql-client.ts';
import { pageView, postBatch } from '../ingestion/support.ts';
import { apiClient } from '../support/client.ts';
import { ENGINES_BESIDE_EVENT_STORE, startTestApp, type TestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { type Bundle, buildBundle, throwIn } from './bundle.ts';
import { DETAIL, LIST } from './incident-queries.ts';

const ORIGINAL = 'window|amount missing for USDC|src/wallet.ts:formatAmount';

/**
 * Deleting one release's source maps (docs/source-maps.md, "Making room"): admins and the owner only, the
 * rows and the files go, the release's errors are no longer mapped, and the account's usage in the releases
 * list drops by the release's bytes.
 */
describe.each(ENGINES_BESIDE_EVENT_STORE)("deleting a release's source maps on %s", (engine) => {
  let test: TestApp;
  let owner: SeededUser;
  let admin: SeededUser;
  let viewer: SeededUser;
  let stranger: SeededUser;
  let projectId: string;
  let otherProjectId: string;
  let apiKey: string;
  let writeToken: string;
  let root: string;
  let bundle: Bundle;
  const api = () => apiClient(test.app);
  const releasesUrl = (project = projectId) => `projects/${project}/releases/sourcemaps`;
  const releaseUrl = (release: string, project = projectId) =>
    `projects/${project}/releases/${encodeURIComponent(release)}/sourcemaps`;
  const list = async (project = projectId) =>
    SourcemapReleaseListSchema.parse((await api().get(releasesUrl(project), { token: owner.token })).json());
  const storedFiles = (project = projectId) => {
    try {
      return readdirSync(path.join(test.config.dataDir, 'sourcemaps', project)).sort();
    } catch {
      return [];
    }
  };

  async function upload(release: string, project = projectId) {
    const form = new FormData();
    const map = readFileSync(path.join(bundle.assets, `${bundle.file}.map`));
    form.append('file', new Blob([map]), `~/assets/${bundle.file}.map`);
    const response = new Response(form);
    const answer = await test.app.inject({
      method: 'POST',
      url: `/api/v1/${releaseUrl(release, project)}`,
      headers: {
        authorization: `Bearer ${owner.token}`,
        'content-type': response.headers.get('content-type') as string,
      },
      payload: Buffer.from(await response.arrayBuffer()),
    });
    expect(answer.statusCode, answer.body).toBe(201);
    return SourcemapUploadResultSchema.parse(answer.json());
  }

  async function throwFrom(release: string) {
    const { message, stack } = throwIn(bundle);
    test.clock.advance(1000);
    const response = await postBatch(test.app, {
      apiKey,
      release,
      events: [
        pageView({ ts: test.clock().getTime(), type: 'error', source: 'window', message, stack } as never),
      ],
    });
    expect(response.statusCode).toBe(200);
    await test.services.events.flush();
  }

  const incidentIds = async () =>
    IncidentListSchema.parse(
      dataOf(
        await graphqlClient(test.app)(
          LIST,
          { projectId, statuses: ['open', 'resolved'] },
          { token: owner.token },
        ),
      ).incidents,
    ).rows.map((row) => row.id);

  const framesOf = async (incidentId: string) =>
    IncidentDetailSchema.parse(
      dataOf(await graphqlClient(test.app)(DETAIL, { projectId, id: incidentId }, { token: owner.token }))
        .incident,
    ).latest.frames ?? [];

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
    const actor = { id: owner.id, email: owner.email, ip: '127.0.0.1' };
    otherProjectId = (await test.services.projects.createProject(actor, 'Docs site')).id;
    const make = () => seed(test.services).user().verified().build();
    [admin, viewer, stranger] = await Promise.all([make(), make(), make()]);
    const joinedAt = test.clock().toISOString();
    await test.services.db
      .insertInto('project_members')
      .values([
        { project_id: projectId, user_id: admin.id, role: 'admin', joined_at: joinedAt },
        { project_id: projectId, user_id: viewer.id, role: 'viewer', joined_at: joinedAt },
      ])
      .execute();
    const created = await api().post(`projects/${projectId}/write-tokens`, {
      token: owner.token,
      body: { name: 'CI' },
    });
    writeToken = CreatedWriteTokenSchema.parse(created.json()).token;
    root = mkdtempSync(path.join(os.tmpdir(), 'polyflow-delete-maps-'));
    bundle = await buildBundle(root, 0);
  });
  afterAll(async () => {
    await test?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("lists the account's usage across the owner's projects against its limit", async () => {
    const first = await upload('1.0.0');
    const second = await upload('1.0.1');
    const elsewhere = await upload('7.0.0', otherProjectId);
    const listed = await list();
    expect(listed.releases.map((release) => release.release).sort()).toEqual(['1.0.0', '1.0.1']);
    expect(listed.account).toEqual({
      bytes: first.releaseBytes + second.releaseBytes + elsewhere.releaseBytes,
      maxBytes: DEFAULT_SOURCEMAP_ACCOUNT_MAX_BYTES,
    });
    // A viewer of the project sees the same usage (the owner's account, not the viewer's).
    const asViewer = await api().get(releasesUrl(), { token: viewer.token });
    expect(SourcemapReleaseListSchema.parse(asViewer.json()).account).toEqual(listed.account);
  });

  it('refuses viewers, write tokens, non-members and unknown releases, deleting nothing', async () => {
    const before = { listed: await list(), files: storedFiles() };
    const refusals: [string, string, number, string][] = [
      [viewer.token, releaseUrl('1.0.0'), 403, 'ACCESS_FORBIDDEN'],
      [writeToken, releaseUrl('1.0.0'), 403, 'ACCESS_FORBIDDEN'],
      [stranger.token, releaseUrl('1.0.0'), 404, 'RESOURCE_NOT_FOUND'],
      // The admin of this project is no member of the owner's other project.
      [admin.token, releaseUrl('7.0.0', otherProjectId), 404, 'RESOURCE_NOT_FOUND'],
      // A release of the owner's other project, asked of this one.
      [owner.token, releaseUrl('7.0.0'), 404, 'RESOURCE_NOT_FOUND'],
      [owner.token, releaseUrl('none-such'), 404, 'RESOURCE_NOT_FOUND'],
      [owner.token, releaseUrl('x'.repeat(65)), 400, 'INVALID_REQUEST_BODY'],
      [owner.token, releaseUrl('1.0.0\u0007'), 400, 'INVALID_REQUEST_BODY'],
    ];
    for (const [token, url, status, errorCode] of refusals) {
      const response = await api().delete(url, { token });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
      expect(response.json()).toMatchObject({ errorCode, message: expect.any(String) });
    }
    const unknown = await api().delete(releaseUrl('none-such'), { token: owner.token });
    expect(unknown.json().message).toBe('This project has no source maps for release none-such.');
    expect({ listed: await list(), files: storedFiles() }).toEqual(before);
  });

  it("deletes an admin's chosen release: rows, files and mapping go, the usage drops", async () => {
    await throwFrom('1.0.0');
    const mappedId = incidentIdOf(projectId, ORIGINAL);
    expect((await framesOf(mappedId))[0]).toMatchObject({ mapped: true, file: 'src/wallet.ts' });
    const before = await list();
    const deletedBytes = before.releases.find((release) => release.release === '1.0.0')?.bytes ?? 0;
    expect(deletedBytes).toBeGreaterThan(0);
    expect(storedFiles()).toHaveLength(2);

    const deleted = await api().delete(releaseUrl('1.0.0'), { token: admin.token });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(deleted.body).toBe('');
    const entries = await test.services.db
      .selectFrom('audit_log')
      .select(['actor_email', 'target', 'details'])
      .where('project_id', '=', projectId)
      .where('action', '=', 'sourcemaps.delete')
      .execute();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_email: admin.email, target: '1.0.0' });
    expect(JSON.parse(String(entries[0]?.details))).toEqual({ files: 1, bytes: deletedBytes });

    const after = await list();
    expect(after.releases.map((release) => release.release)).toEqual(['1.0.1']);
    expect(after.account.bytes).toBe(before.account.bytes - deletedBytes);
    // The other release's map stays; the deleted one's file is gone from DATA_DIR.
    expect(storedFiles()).toHaveLength(1);
    // The symbolicator forgot the release at once: the latest occurrence's stack is shown minified, and a
    // new error of that release groups on its minified frame again, as before any upload.
    expect((await framesOf(mappedId))[0]).toMatchObject({ mapped: false, file: null });
    const incidentsBefore = await incidentIds();
    await throwFrom('1.0.0');
    const added = (await incidentIds()).filter((id) => !incidentsBefore.includes(id));
    expect(added).toHaveLength(1);
    expect(added[0]).not.toBe(mappedId);
    // The other release still maps.
    await throwFrom('1.0.1');
    expect((await framesOf(mappedId))[0]).toMatchObject({ mapped: true, file: 'src/wallet.ts' });

    // Gone: a second delete is a 404, and the release can be uploaded again.
    const again = await api().delete(releaseUrl('1.0.0'), { token: owner.token });
    expect(again.statusCode).toBe(404);
    await upload('1.0.0');
    expect((await list()).releases.map((release) => release.release).sort()).toEqual(['1.0.0', '1.0.1']);
  });
});
