import { describe, expect, it } from 'vitest';
import type { UploadedFile } from '../../src/modules/sourcemaps/service.ts';
import { useTestApp } from '../support/harness.ts';
import { addMember, type SeededUser, seed } from '../support/seed.ts';

const KB = 1024;

/** A valid version 3 map of exactly `bytes` bytes (its sourcesContent padded). */
function mapOf(name: string, bytes: number): UploadedFile {
  const empty = '{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA","sourcesContent":[""]}';
  const padded = empty.replace('[""]', `["${'x'.repeat(bytes - empty.length)}"]`);
  return { name: `~/assets/${name}.js.map`, content: Buffer.from(padded) };
}

const actorOf = (user: SeededUser) => ({ id: user.id, email: user.email, ip: '127.0.0.1' });

/**
 * A transferred project's maps move to its new owner's total (docs/source-maps.md): the transfer is not
 * refused when that total passes the account's limit, the list then shows more used than the limit, every
 * upload to the new owner's projects is refused with a 413 that says how to make room (deleting releases'
 * maps first), and deleting a release's maps makes the room.
 */
describe("an account's source-map quota after a project transfer", () => {
  const t = useTestApp('sqlite', { sourcemapLimits: { accountMaxBytes: 100 * KB, minFreeDiskBytes: 0 } });

  const upload = async (user: SeededUser, projectId: string, release: string, file: UploadedFile) => {
    const form = new FormData();
    form.append('file', new Blob([file.content]), file.name);
    const response = new Response(form);
    return t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${projectId}/releases/${release}/sourcemaps`,
      headers: {
        authorization: `Bearer ${user.token}`,
        'content-type': response.headers.get('content-type') as string,
      },
      payload: Buffer.from(await response.arrayBuffer()),
    });
  };
  const usage = async (user: SeededUser, projectId: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/projects/${projectId}/releases/sourcemaps`,
        headers: { authorization: `Bearer ${user.token}` },
      })
    ).json().account;

  it('moves the usage, lets the new owner pass the limit, refuses their uploads until a release is deleted', async () => {
    const alice = await seed(t.services).user().verified();
    const bob = await seed(t.services).user().verified();
    const shop = await t.services.projects.createProject(actorOf(alice), 'Shop');
    const wallet = await t.services.projects.createProject(actorOf(bob), 'Wallet');
    expect((await upload(alice, shop.id, 'a1', mapOf('a', 40 * KB))).statusCode).toBe(201);
    expect((await upload(bob, wallet.id, 'b1', mapOf('b', 70 * KB))).statusCode).toBe(201);

    await addMember(t.services, shop.id, bob.id, 'admin');
    await t.services.members.transfer(actorOf(alice), shop.id, bob.id);
    expect(await usage(bob, shop.id)).toEqual({ bytes: 110 * KB, maxBytes: 100 * KB });
    expect(await usage(alice, shop.id)).toEqual({ bytes: 110 * KB, maxBytes: 100 * KB });

    const refused = await upload(bob, wallet.id, 'b2', mapOf('c', 1 * KB));
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({
      errorCode: 'PAYLOAD_TOO_LARGE',
      message: expect.stringContaining(
        "Make room by deleting the maps of releases no one runs any more (the Source maps card of the SDK screen, or DELETE /api/v1/projects/:id/releases/:release/sourcemaps), in this project or in the owner's other projects",
      ),
    });

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/projects/${shop.id}/releases/a1/sourcemaps`,
      headers: { authorization: `Bearer ${bob.token}` },
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await usage(bob, wallet.id)).toEqual({ bytes: 70 * KB, maxBytes: 100 * KB });
    expect((await upload(bob, wallet.id, 'b2', mapOf('c', 1 * KB))).statusCode).toBe(201);
  });
});
