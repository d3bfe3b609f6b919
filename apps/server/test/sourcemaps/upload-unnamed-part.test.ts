import { readdirSync } from 'node:fs';
import path from 'node:path';
import { CreatedWriteTokenSchema } from '@polyflow/contracts/sourcemaps';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, errorOf } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';

const MAP = '{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA"}';
const part = (disposition: string) =>
  `--zz\r\nContent-Disposition: form-data; ${disposition}\r\nContent-Type: application/octet-stream\r\n\r\n${MAP}`;
const NAMED = part('name="file"; filename="~/assets/a.js.map"');

/**
 * Round-39 attack: a file part without a file name (`Content-Disposition: form-data; name="file"` with a
 * Content-Type, as Node's FormData sends a Blob appended with the name '') answered 500 INTERNAL_ERROR:
 * the upload read its name as undefined. It is a badly named map: 400 INVALID_SOURCE_MAP and nothing
 * stored (docs/source-maps.md).
 */
describe('a source-map upload with a file part without a name', () => {
  const t = useTestApp('sqlite');
  let owner: SeededUser;
  let projectId: string;
  let writeToken: string;

  beforeAll(async () => {
    const seeded = await seed(t.services).user().verified().project('Dapp');
    owner = seeded.user;
    projectId = seeded.project.id;
    const created = await apiClient(t.app).post(`projects/${projectId}/write-tokens`, {
      token: owner.token,
      body: { name: 'CI' },
    });
    writeToken = CreatedWriteTokenSchema.parse(created.json()).token;
  });

  it('is refused with 400 INVALID_SOURCE_MAP, alone or beside a well-named map, and stores nothing', async () => {
    const bodies: [string, string[]][] = [
      ['alone', [part('name="file"')]],
      ['after a named map', [NAMED, part('name="file"')]],
      ['before a named map', [part('name="file"'), NAMED]],
      ['an empty file name', [part('name="file"; filename=""')]],
    ];
    for (const [label, parts] of bodies) {
      for (const token of [writeToken, owner.token]) {
        const response = await t.app.inject({
          method: 'POST',
          url: `/api/v1/projects/${projectId}/releases/r1/sourcemaps`,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=zz' },
          payload: Buffer.from([...parts, '--zz--', ''].join('\r\n')),
        });
        expect({ label, status: response.statusCode, code: errorOf(response).errorCode }).toEqual({
          label,
          status: 400,
          code: 'INVALID_SOURCE_MAP',
        });
      }
    }
    let files: string[] = [];
    try {
      files = readdirSync(path.join(t.config.dataDir, 'sourcemaps', projectId));
    } catch {}
    expect(files).toEqual([]);
  });
});
