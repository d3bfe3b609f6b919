import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type Received = { path: string; headers: http.IncomingHttpHeaders; body: string; at: number };

/** What the receiver does with one request: answer a status, or something hostile. */
export type Behaviour =
  | { status: number; headers?: Record<string, string> }
  | { hang: true }
  | { slowMs: number; status: number }
  | { hugeBodyBytes: number };

/**
 * A real HTTP receiver on loopback that keeps every request (it drops no duplicate) and answers as told:
 * `next` behaviours first, one per request, then `otherwise`.
 */
export type Receiver = {
  url: string;
  received: Received[];
  /** Requests to `path` so far. */
  to(path: string): Received[];
  next: Behaviour[];
  otherwise: Behaviour;
  /** What requests to a path always get (before `next`). */
  byPath: Map<string, Behaviour>;
  /** Bytes of hostile bodies written before the client went away. */
  bytesWritten: number;
  waitFor(count: number, withinMs: number, path?: string): Promise<Received[]>;
  close(): Promise<void>;
};

export async function startReceiver(port = 0): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const state: Receiver = {
    url: '',
    received: [],
    to: (path) => state.received.filter((request) => request.path === path),
    next: [],
    otherwise: { status: 200 },
    byPath: new Map(),
    bytesWritten: 0,
    async waitFor(count, withinMs, path) {
      const started = Date.now();
      for (;;) {
        const got = path ? state.to(path) : state.received;
        if (got.length >= count) return got;
        if (Date.now() - started > withinMs) {
          throw new Error(`receiver: ${got.length} of ${count} requests within ${withinMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      state.received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const behaviour = state.byPath.get(request.url ?? '') ?? state.next.shift() ?? state.otherwise;
      if ('hang' in behaviour) return;
      if ('slowMs' in behaviour) {
        setTimeout(() => response.writeHead(behaviour.status).end('late'), behaviour.slowMs);
        return;
      }
      if ('hugeBodyBytes' in behaviour) {
        response.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let left = behaviour.hugeBodyBytes;
        const write = () => {
          while (left > 0) {
            left -= chunk.length;
            state.bytesWritten += chunk.length;
            if (!response.write(chunk)) {
              response.once('drain', write);
              return;
            }
          }
          response.end();
        };
        response.on('close', () => {
          left = 0;
        });
        write();
        return;
      }
      response.writeHead(behaviour.status, behaviour.headers).end('{"ok":true}');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** The verification function of docs/alerts.md's signature section. */
export type Verifier = (secret: string, rawBody: string | Buffer, header: unknown, nowMs?: number) => boolean;

/** The docs' verification code exactly as printed (its first js block, written out and imported). */
export async function docsVerifier(): Promise<Verifier> {
  const docs = readFileSync(path.resolve(import.meta.dirname, '../../../../docs/alerts.md'), 'utf8');
  const section = docs.slice(docs.indexOf("## Verifying a webhook's signature"));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error("no js block under docs/alerts.md's signature section");
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'polyflow-verify-')), 'verify.mjs');
  writeFileSync(file, code);
  const module = (await import(file)) as { verifyPolyflowSignature: Verifier };
  return module.verifyPolyflowSignature;
}
