import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.ts';
import { startTestApp } from '../support/harness.ts';

let harness: TestApp;
let port = 0;
beforeAll(async () => {
  harness = await startTestApp('sqlite');
  await harness.app.listen({ port: 0, host: '127.0.0.1' });
  port = (harness.app.server.address() as net.AddressInfo).port;
});
afterAll(() => harness.close());

/**
 * A client on a real socket that sends a 3 MB body in 64 KB writes, pausing after the first (the
 * server has answered by then, from the Content-Length), and reads whatever comes back: the answer,
 * or the error its writes met (a reset connection).
 */
function sendLargeBody(path: string, contentType: string, headers = '') {
  const size = 3 * 1024 * 1024;
  return new Promise<{ status: number; body: string; writeError: string | undefined }>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    let writeError: string | undefined;
    socket.on('data', (chunk) => {
      response += chunk.toString('utf8');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      writeError = error.code ?? error.message;
    });
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
      resolve({ status, body: response.slice(response.indexOf('\r\n\r\n') + 4), writeError });
    });
    socket.write(
      `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: ${contentType}\r\ncontent-length: ${size}\r\norigin: https://app.example.com\r\n${headers}\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = () => {
      while (sent < size && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(chunk)) {
          socket.once('drain', () => setImmediate(pump));
          return;
        }
        if (sent === 64 * 1024) {
          setTimeout(pump, 300);
          return;
        }
      }
      if (!socket.destroyed) socket.end();
    };
    setImmediate(pump);
  });
}

describe('a 3 MB body', () => {
  it.each([
    ['/api/v1/events', 'text/plain', ''],
    ['/api/graphql', 'application/json', ''],
    [
      '/api/v1/register',
      'application/json',
      'cookie: XSRF-TOKEN=abcdefghijklmnop\r\nx-xsrf-token: abcdefghijklmnop\r\n',
    ],
  ])('to %s is answered with a readable 413, not a reset connection', async (path, type, headers) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const { status, body, writeError } = await sendLargeBody(path, type, headers);
      expect(writeError).toBeUndefined();
      expect(status).toBe(413);
      expect(JSON.parse(body)).toMatchObject({ errorCode: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
    }
  });
});
