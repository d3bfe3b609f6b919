import { CreatedWriteTokenSchema } from '@polyflow/contracts/sourcemaps';
import { describe, expect, it } from 'vitest';
import { apiClient } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { addMember, seed } from '../support/seed.ts';

const MAP = '{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA"}';
const UPLOAD = `--zz\r\nContent-Disposition: form-data; name="file"; filename="~/assets/a.js.map"\r\nContent-Type: application/octet-stream\r\n\r\n${MAP}\r\n--zz--\r\n`;

/**
 * docs/source-maps.md and docs/teams.md: a write token belongs to the project, not to the admin who created
 * it. It keeps uploading after that admin is removed (a CI secret outlives the colleague who set it up),
 * its uploads still name the creator as the actor, and it stops at once when an admin revokes it.
 */
describe('a write token whose creator is removed from the project', () => {
  const t = useTestApp('sqlite');
  const api = () => apiClient(t.app);

  it('keeps uploading in its creator name until an admin revokes it', async () => {
    const { user: owner, project } = await seed(t.services).user().verified().project('Dapp');
    const admin = await seed(t.services).user().verified().build();
    await addMember(t.services, project.id, admin.id, 'admin');
    const created = await api().post(`projects/${project.id}/write-tokens`, {
      token: admin.token,
      body: { name: 'CI' },
    });
    expect(created.statusCode).toBe(201);
    const writeToken = CreatedWriteTokenSchema.parse(created.json());

    const send = (release: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/projects/${project.id}/releases/${release}/sourcemaps`,
        headers: {
          authorization: `Bearer ${writeToken.token}`,
          'content-type': 'multipart/form-data; boundary=zz',
        },
        payload: UPLOAD,
      });
    expect((await send('r1')).statusCode).toBe(201);

    const removed = await api().delete(`projects/${project.id}/members/${admin.id}`, { token: owner.token });
    expect(removed.statusCode).toBe(204);
    expect((await send('r2')).statusCode).toBe(201);

    const uploads = await t.services.db
      .selectFrom('audit_log')
      .select(['actor_email', 'target'])
      .where('project_id', '=', project.id)
      .where('action', '=', 'sourcemaps.upload')
      .orderBy('target')
      .execute();
    expect(uploads).toEqual([
      { actor_email: admin.email, target: 'r1' },
      { actor_email: admin.email, target: 'r2' },
    ]);

    const revoked = await api().delete(`projects/${project.id}/write-tokens/${writeToken.id}`, {
      token: owner.token,
    });
    expect(revoked.statusCode).toBe(204);
    expect((await send('r3')).statusCode).toBe(401);
  });
});
