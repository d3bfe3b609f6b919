import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMapFiles } from '../../src/modules/sourcemaps/files.ts';
import { createSourcemapStore } from '../../src/modules/sourcemaps/store.ts';
import { createSymbolicator } from '../../src/modules/sourcemaps/symbolicator.ts';
import { apiClient } from '../support/client.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { type Bundle, buildBundle, throwIn } from './bundle.ts';

/**
 * A second node of one deployment (its own symbolicator on the same accounts store and DATA_DIR): a release's
 * maps deleted and uploaded again on the first node are read afresh at the second's next index read, not
 * from the rows it had cached (whose files the delete removed).
 */
describe('a release deleted and uploaded again on another node', () => {
  let test: TestApp;
  let owner: SeededUser;
  let projectId: string;
  let root: string;
  let builds: [Bundle, Bundle];

  async function upload(release: string, bundle: Bundle) {
    const form = new FormData();
    form.append(
      'file',
      new Blob([readFileSync(path.join(bundle.assets, `${bundle.file}.map`))]),
      `~/assets/${bundle.file}.map`,
    );
    const body = new Response(form);
    const answer = await test.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${projectId}/releases/${release}/sourcemaps`,
      headers: {
        authorization: `Bearer ${owner.token}`,
        'content-type': body.headers.get('content-type') as string,
      },
      payload: Buffer.from(await body.arrayBuffer()),
    });
    expect(answer.statusCode, answer.body).toBe(201);
  }

  beforeAll(async () => {
    test = await startTestApp('sqlite');
    const seeded = await seed(test.services).user().verified().project('Dapp');
    owner = seeded.user;
    projectId = seeded.project.id;
    root = mkdtempSync(path.join(os.tmpdir(), 'polyflow-other-node-'));
    builds = [await buildBundle(root, 0), await buildBundle(root, 1)];
  });
  afterAll(async () => {
    vi.useRealTimers();
    await test?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('maps with the new upload, not with the rows of the deleted one', async () => {
    await upload('1.0.0', builds[0]);
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const otherNode = createSymbolicator({
      store: createSourcemapStore(test.services.db),
      files: createMapFiles(path.join(test.config.dataDir, 'sourcemaps')),
    });
    await otherNode.start();
    const topFrame = async (bundle: Bundle) =>
      (await otherNode.mapStack(projectId, '1.0.0', throwIn(bundle).stack))[0];
    expect(await topFrame(builds[0])).toMatchObject({ mapped: true, file: 'src/wallet.ts' });

    const deleted = await apiClient(test.app).delete(`projects/${projectId}/releases/1.0.0/sourcemaps`, {
      token: owner.token,
    });
    expect(deleted.statusCode).toBe(204);
    vi.advanceTimersByTime(5_000);
    await vi.waitFor(() => expect(otherNode.hasMaps(projectId, '1.0.0')).toBe(false));
    expect(await topFrame(builds[0])).toMatchObject({ mapped: false });

    // Release 1.0.0 rebuilt (another bundle file) and its maps uploaded again.
    await upload('1.0.0', builds[1]);
    vi.advanceTimersByTime(5_000);
    await vi.waitFor(() => expect(otherNode.hasMaps(projectId, '1.0.0')).toBe(true));
    expect(await topFrame(builds[1])).toMatchObject({ mapped: true, file: 'src/wallet.ts' });
    otherNode.stop();
  });
});
