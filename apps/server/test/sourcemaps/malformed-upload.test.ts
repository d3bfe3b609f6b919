import { readdirSync } from 'node:fs';
import http from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import path from 'node:path';
import { CreatedWriteTokenSchema, SourcemapReleaseListSchema } from '@polyflow/contracts/sourcemaps';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, errorOf } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';

const MAP = '{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA"}';
const FILE_HEADERS =
  'Content-Disposition: form-data; name="file"; filename="~/assets/a.js.map"\r\nContent-Type: application/octet-stream';

/** A multipart body written by hand, so that it can be wrong in the ways a broken client writes it. */
const body = (...parts: string[]) => Buffer.from(parts.join('\r\n'));
const filePart = (content = MAP) => `--zz\r\n${FILE_HEADERS}\r\n\r\n${content}`;
const textPart = (name: string, value: string) =>
  `--zz\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}`;
const BOUNDARY = 'multipart/form-data; boundary=zz';

/**
 * A source-map upload whose body is not the multipart the route takes (no boundary, cut off, a text part
 * among the files) is a client's mistake: 400 INVALID_SOURCE_MAP, never a 500 or a 413, and nothing stored.
 */
describe('a malformed source-map upload', () => {
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

  const upload = (contentType: string, payload: Buffer, token = writeToken) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${projectId}/releases/r7/sourcemaps`,
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      payload,
    });
  const stored = async () => {
    const releases = await apiClient(t.app).get(`projects/${projectId}/releases/sourcemaps`, {
      token: owner.token,
    });
    let files: string[] = [];
    try {
      files = readdirSync(path.join(t.config.dataDir, 'sourcemaps', projectId));
    } catch {}
    return { releases: SourcemapReleaseListSchema.parse(releases.json()).releases, files };
  };

  it('is refused with 400 INVALID_SOURCE_MAP when the body is not well-formed multipart', async () => {
    const cases: [string, string, Buffer][] = [
      ['no boundary', 'multipart/form-data', Buffer.from('abc')],
      ['no boundary, a real body', 'multipart/form-data', body(filePart(), '--zz--', '')],
      ['a body that is not multipart under a boundary', BOUNDARY, Buffer.from('abc')],
      ['cut off inside the file part', BOUNDARY, body(filePart('{"version":3'))],
      ['cut off inside the part headers', BOUNDARY, Buffer.from(`--zz\r\n${FILE_HEADERS}`)],
      ['cut off after a whole part', BOUNDARY, body(filePart(), '--zz')],
      ['cut off after a whole part and its line end', BOUNDARY, body(filePart(), '--zz', '')],
      ['cut off before the second part', BOUNDARY, body(filePart(), '--zz', FILE_HEADERS)],
      ['a part without headers', BOUNDARY, body('--zz', '', MAP, '--zz--', '')],
    ];
    for (const [label, contentType, payload] of cases) {
      for (const token of [writeToken, owner.token]) {
        const response = await upload(contentType, payload, token);
        expect({ label, status: response.statusCode, code: errorOf(response).errorCode }).toEqual({
          label,
          status: 400,
          code: 'INVALID_SOURCE_MAP',
        });
        expect(errorOf(response).message).not.toMatch(/Boundary|Premature|terminated|Internal/);
      }
    }
    expect(await stored()).toEqual({ releases: [], files: [] });
  });

  it('is refused with 400 INVALID_SOURCE_MAP, not 413, when a part is not a file', async () => {
    const cases: [string, Buffer][] = [
      ['a text part alone', body(textPart('note', 'abc'), '--zz--', '')],
      ['a text part named file', body(textPart('file', 'abc'), '--zz--', '')],
      ['a text part before the file', body(textPart('note', 'abc'), filePart(), '--zz--', '')],
      ['a text part after the file', body(filePart(), textPart('note', 'abc'), '--zz--', '')],
    ];
    for (const [label, payload] of cases) {
      const response = await upload(BOUNDARY, payload);
      expect({ label, status: response.statusCode, ...errorOf(response) }).toEqual({
        label,
        status: 400,
        errorCode: 'INVALID_SOURCE_MAP',
        message: 'Send only file parts, one per .map file.',
      });
    }
    expect(await stored()).toEqual({ releases: [], files: [] });
  });

  it('is refused with 413 past 1,000 files in one upload', async () => {
    const files = Array.from({ length: 1001 }, () => filePart());
    const response = await upload(BOUNDARY, body(...files, '--zz--', ''));
    expect({ status: response.statusCode, code: errorOf(response).errorCode }).toEqual({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(errorOf(response).message).toContain('1000 files');
    expect(await stored()).toEqual({ releases: [], files: [] });
  });

  it('is refused when the body stops between two parts, even once the parts before are read', async () => {
    // Over a socket, in two writes: the first part is whole (and read) before the body ends in the second's
    // headers, where busboy ends the parts quietly.
    const server = http.createServer((request, response) => t.app.routing(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const first = `${filePart()}\r\n--zz\r\n`;
      const rest = 'Content-Disposition: form-da';
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      socket.write(
        `POST /api/v1/projects/${projectId}/releases/r7/sourcemaps HTTP/1.1\r\nHost: polyflow.test\r\n` +
          `Authorization: Bearer ${writeToken}\r\nContent-Type: ${BOUNDARY}\r\n` +
          `Content-Length: ${first.length + rest.length}\r\nConnection: close\r\n\r\n${first}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      socket.write(rest);
      const answer = await new Promise<string>((resolve, reject) => {
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk;
        });
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
        errorCode: 'INVALID_SOURCE_MAP',
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await stored()).toEqual({ releases: [], files: [] });
  });

  it('leaves the route working: a well-formed upload after them is stored', async () => {
    const response = await upload(BOUNDARY, body(filePart(), '--zz--', ''));
    expect(response.statusCode).toBe(201);
    expect((await stored()).files).toHaveLength(1);
  });
});
