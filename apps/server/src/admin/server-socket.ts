import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * The running server's side of the admin CLI (README, "Admin command line"; ADR 015): a Unix socket in DATA_DIR,
 * readable by the server's own user only (mode 0600), that does what another process cannot while the
 * server holds the event store — DuckDB lets one process open its file. One JSON line asks, one answers.
 */
export const ADMIN_SOCKET = 'admin.sock';

/** Unix socket paths are limited to 107 bytes on Linux. */
const MAX_SOCKET_PATH = 107;

export type AdminRequest =
  | { command: 'copy-events'; to: string }
  | { command: 'send-report'; projectId: string; kind: 'weekly' | 'monthly' };
export type AdminAnswer = { ok: true; message: string } | { ok: false; message: string };

type Logger = { info(details: object, message: string): void; warn(details: object, message: string): void };

export type AdminSocketOptions = {
  dataDir: string;
  /** The ingestion log's directory: acknowledged events not loaded yet, copied beside the store. */
  logDir: string;
  /** The event store's consistent copy into a new file, when its engine keeps data in DATA_DIR. */
  copyEventStore: ((file: string) => Promise<void>) | undefined;
  /** `send-report`: the last completed period's report of a project, now (modules/reports, `sendNow`). */
  sendReport?: (projectId: string, kind: 'weekly' | 'monthly') => Promise<AdminAnswer>;
  logger: Logger;
};

/**
 * Copies the ingestion log's files as they are now, each cut back to its last complete record (the
 * current segment may be mid-append). A segment the loader removes meanwhile was loaded: the store's copy,
 * taken after this, holds its events. Loading a segment again is idempotent (ADR 053), so an event both in
 * a copied segment and in the store's copy counts once after a restore.
 */
function copyIngestionLog(logDir: string, target: string): number {
  if (!existsSync(logDir)) return 0;
  mkdirSync(target, { recursive: true });
  let files = 0;
  for (const name of readdirSync(logDir)) {
    let content: Buffer;
    try {
      content = readFileSync(path.join(logDir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const end = content.lastIndexOf(0x0a) + 1;
    if (end === 0) continue;
    writeFileSync(path.join(target, name), content.subarray(0, end));
    files += 1;
  }
  return files;
}

async function answer(request: unknown, options: AdminSocketOptions): Promise<AdminAnswer> {
  const asked = (request ?? {}) as { command?: unknown; to?: unknown; projectId?: unknown; kind?: unknown };
  if (asked.command === 'send-report' && options.sendReport) {
    const { projectId, kind } = asked;
    if (typeof projectId !== 'string' || (kind !== 'weekly' && kind !== 'monthly')) {
      return { ok: false, message: 'send-report needs a project id and a kind (weekly or monthly).' };
    }
    return options.sendReport(projectId, kind);
  }
  const { command, to } = asked;
  if (command !== 'copy-events' || typeof to !== 'string' || !path.isAbsolute(to)) {
    return {
      ok: false,
      message:
        'Unknown request: this server answers {"command":"copy-events","to":"/abs/dir"} and {"command":"send-report","projectId":"…","kind":"weekly"}.',
    };
  }
  if (!options.copyEventStore) {
    return {
      ok: false,
      message:
        'This server keeps its events outside DATA_DIR (ClickHouse): back them up with its own tools (docs/scaling.md).',
    };
  }
  if (!existsSync(to)) return { ok: false, message: `${to} does not exist.` };
  const logFiles = copyIngestionLog(options.logDir, path.join(to, 'ingest-log'));
  await options.copyEventStore(path.join(to, 'events.duckdb'));
  options.logger.info({ to, logFiles }, 'copied the event store for a backup');
  return { ok: true, message: `copied the event store and ${logFiles} ingestion log file(s)` };
}

/** Listens on DATA_DIR/admin.sock until `close`; a socket file left by a killed server is replaced. */
export async function serveAdminSocket(options: AdminSocketOptions): Promise<{ close(): Promise<void> }> {
  const file = path.join(options.dataDir, ADMIN_SOCKET);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) {
    options.logger.warn(
      { file },
      'DATA_DIR is too long a path for the admin socket: `npm run admin -- backup` needs the server stopped',
    );
    return { close: async () => undefined };
  }
  // Only one server can hold DATA_DIR's event store, so a socket file here is a dead server's.
  rmSync(file, { force: true });
  const server = net.createServer((socket) => {
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.length > 64 * 1024) socket.destroy();
      const newline = received.indexOf('\n');
      if (newline === -1) return;
      let request: unknown;
      try {
        request = JSON.parse(received.slice(0, newline));
      } catch {
        request = undefined;
      }
      answer(request, options).then(
        (reply) => socket.end(`${JSON.stringify(reply)}\n`),
        (error: unknown) =>
          socket.end(
            `${JSON.stringify({ ok: false, message: error instanceof Error ? error.message : String(error) })}\n`,
          ),
      );
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  chmodSync(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          rmSync(file, { force: true });
          resolve();
        });
      }),
  };
}

/** The CLI's side: asks the server running on DATA_DIR, or answers undefined when none listens. */
export function askServer(dataDir: string, request: AdminRequest): Promise<AdminAnswer | undefined> {
  const file = path.join(dataDir, ADMIN_SOCKET);
  if (!existsSync(file)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let received = '';
    const socket = net.createConnection(file, () => socket.write(`${JSON.stringify(request)}\n`));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(received) as AdminAnswer);
      } catch {
        resolve({ ok: false, message: 'The server gave no answer.' });
      }
    });
    socket.on('error', () => resolve(undefined));
  });
}
