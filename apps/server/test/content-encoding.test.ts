import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CHROME_UA, GB_IP, pageView, storedEvents } from './ingestion/support.ts';
import { apiClient, errorOf } from './support/client.ts';
import { useTestApp } from './support/harness.ts';
import { seed, snapshot } from './support/seed.ts';

/**
 * No route decodes a Content-Encoding: a body labelled with one (gzip or not) is refused with 415 before any
 * route runs, rather than read as JSON that is not (gzip) or stored as if the label were not there (plain).
 */
describe('Content-Encoding of request bodies', () => {
  const t = useTestApp('sqlite');
  const api = () => apiClient(t.app);

  const postEvents = (body: string | Buffer, contentEncoding?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        'user-agent': CHROME_UA,
        origin: 'https://app.example.com',
        ...(contentEncoding === undefined ? {} : { 'content-encoding': contentEncoding }),
      },
      payload: body,
      remoteAddress: GB_IP,
    });
  const expectRefused = (response: Awaited<ReturnType<typeof postEvents>>, label: string) => {
    expect({ label, status: response.statusCode, code: errorOf(response).errorCode }).toEqual({
      label,
      status: 415,
      code: 'UNSUPPORTED_CONTENT_ENCODING',
    });
    expect(errorOf(response).message).toContain('identity');
    expect(response.headers['accept-encoding']).toBe('identity');
  };

  it('refuses a batch with any coding but identity, compressed or not, and stores nothing', async () => {
    const { project } = await seed(t.services)
      .user()
      .verified()
      .project('Dapp')
      .apiKey()
      .domain('app.example.com');
    const batch = JSON.stringify({ apiKey: project.apiKey, events: [pageView()] });
    const refused: [string, string | Buffer][] = [
      ['gzip', gzipSync(batch)],
      ['gzip', batch],
      ['GZip', batch],
      ['x-gzip', batch],
      ['deflate', batch],
      ['br', brotliCompressSync(batch)],
      ['identity, gzip', gzipSync(batch)],
      ['zstd', batch],
    ];
    for (const [coding, body] of refused) expectRefused(await postEvents(body, coding), coding);
    expect(await storedEvents(t.services, project.id)).toEqual([]);

    // The body as it is: no header, or identity in any case.
    for (const coding of [undefined, 'identity', 'IDENTITY']) {
      const batchNow = JSON.stringify({ apiKey: project.apiKey, events: [pageView()] });
      expect((await postEvents(batchNow, coding)).statusCode, String(coding)).toBe(200);
    }
    expect(await storedEvents(t.services, project.id)).toHaveLength(3);
  });

  it('refuses a console mutation with a coded body before it does anything', async () => {
    const user = await seed(t.services).user().verified().build();
    const before = await snapshot(t.services);
    const body = JSON.stringify({ name: 'Compressed' });
    for (const [coding, payload] of [
      ['gzip', gzipSync(body)],
      ['gzip', body],
    ] as const) {
      const response = await api().post('projects', {
        token: user.token,
        payload,
        headers: { 'content-encoding': coding },
      });
      expectRefused(response, coding);
    }
    expect(await snapshot(t.services)).toBe(before);
    const plain = await api().post('projects', { token: user.token, payload: body });
    expect(plain.statusCode).toBe(201);
  });

  it('ignores the header on a request without a body', async () => {
    const health = await t.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'content-encoding': 'gzip' },
    });
    expect(health.statusCode).toBe(200);
  });
});
