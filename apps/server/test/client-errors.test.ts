import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/harness.ts';
import { seed } from './support/seed.ts';

/** What came back on a connection: the status line's code, the headers and the body, as sent. */
type Raw = { status: number; headers: Record<string, string>; body: string; text: string };

function parse(text: string): Raw {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4), text };
}

/**
 * Requests Node's HTTP parser refuses never reach a route: they are answered by Fastify's clientErrorHandler,
 * which must give the same `{errorCode, message}` as every other refusal, and close the connection.
 */
describe('requests refused before routing', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Writes the bytes on a new connection; everything the server sends until it closes the connection. */
  const exchange = (request: string): Promise<Raw> =>
    new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
      });
      socket.on('close', () => resolve(parse(text)));
      socket.on('error', reject);
      socket.write(request);
    });

  const expectRefusal = (answer: Raw, status: number, errorCode: string) => {
    expect({ status: answer.status, type: answer.headers['content-type'] }, answer.text).toEqual({
      status,
      type: 'application/json; charset=utf-8',
    });
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['errorCode', 'message']);
    expect(body.errorCode).toBe(errorCode);
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
    expect(answer.headers.connection).toBe('close');
  };

  it('answers headers or a query string over 16 KB with 431 HEADERS_TOO_LARGE', async () => {
    const big = 'a'.repeat(20_000);
    expectRefusal(
      await exchange(`GET /api/v1/health HTTP/1.1\r\nHost: polyflow.test\r\nX-Big: ${big}\r\n\r\n`),
      431,
      'HEADERS_TOO_LARGE',
    );
    expectRefusal(
      await exchange(`GET /api/v1/health?q=${big} HTTP/1.1\r\nHost: polyflow.test\r\n\r\n`),
      431,
      'HEADERS_TOO_LARGE',
    );
  });

  it('answers a request that is not HTTP/1.1 with 400 INVALID_REQUEST', async () => {
    const malformed = [
      'GET /api/v1/health HTTP/1.1\r\nHost: polyflow.test\r\nno colon here\r\n\r\n',
      'POST /api/v1/events HTTP/1.1\r\nHost: polyflow.test\r\nContent-Length: abc\r\n\r\n{}',
      'POST /api/v1/events HTTP/1.1\r\nHost: polyflow.test\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      'GET /api/v1/health HTTP/9.9\r\nHost: polyflow.test\r\n\r\n',
      'NOT A REQUEST\r\n\r\n',
    ];
    for (const request of malformed) expectRefusal(await exchange(request), 400, 'INVALID_REQUEST');
  });

  it('writes nothing into an answer already being sent on the connection, and closes it', async () => {
    const { user, project } = await seed(t.services).user().verified().project('Live');
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const headersRead = new Promise<void>((resolve) => {
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('\r\n\r\n')) resolve();
      });
    });
    socket.write(
      `GET /api/v1/projects/${project.id}/live HTTP/1.1\r\nHost: polyflow.test\r\n` +
        `Authorization: Bearer ${user.token}\r\nAccept: text/event-stream\r\n\r\n`,
    );
    await headersRead;
    expect(parse(text).status).toBe(200);
    // The live stream's answer has started: a malformed second request on the connection closes it.
    socket.write('GET /api/v1/health HTTP/1.1\r\nno colon here\r\n\r\n');
    await closed;
    expect(text.slice(text.indexOf('\r\n\r\n'))).not.toContain('HTTP/1.1');
  });
});
