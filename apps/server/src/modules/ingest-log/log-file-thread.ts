import { Worker } from 'node:worker_threads';

/**
 * The ingestion log's file writes (append, fdatasync, close, unlink) on a thread of their own, with the
 * file system's synchronous calls (ADR 034). Node's asynchronous file calls run on libuv's thread pool,
 * four threads by default, which DuckDB's queries share: while four dashboard questions, exports or loads
 * were running, an acknowledgement's fdatasync waited for one of them to finish (measured: 12.4 s behind
 * four long queries). This thread waits for no one, so no query of any project holds back another
 * project's acknowledgements.
 *
 * The bytes travel in shared memory: the caller copies a group's records into a SharedArrayBuffer and the
 * thread writes them from there, without a copy per message. One call at a time (the log's appends are
 * serial), answered in call order.
 */
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
let current;
function closeCurrent() {
  if (current) fs.closeSync(current.fd);
  current = undefined;
}
function fsyncDirectory(dir) {
  const fd = fs.openSync(dir, 'r');
  try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
}
parentPort.on('message', (call) => {
  try {
    if (call.op === 'append') {
      if (!current || current.file !== call.file) {
        closeCurrent();
        current = { file: call.file, fd: fs.openSync(call.file, 'a') };
        // The new file's directory entry must be durable too, or an fsynced record could vanish with it.
        fsyncDirectory(path.dirname(call.file));
      }
      const bytes = new Uint8Array(call.shared, 0, call.length);
      try {
        let written = 0;
        while (written < call.length) written += fs.writeSync(current.fd, bytes, written, call.length - written);
        fs.fdatasyncSync(current.fd);
      } catch (error) {
        // Never leave half a record for the next append to follow: cut back to the last whole one.
        try { fs.ftruncateSync(current.fd, call.keep); } catch {}
        throw error;
      }
    } else if (call.op === 'close') {
      closeCurrent();
    } else if (call.op === 'unlink') {
      fs.unlinkSync(call.file);
    }
    parentPort.postMessage({ id: call.id });
  } catch (error) {
    parentPort.postMessage({ id: call.id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

type Call =
  | { op: 'append'; file: string; shared: SharedArrayBuffer; length: number; keep: number }
  | { op: 'close' }
  | { op: 'unlink'; file: string };

type Reply = { id: number; error?: { message: string; code?: string } };

export type LogFileThread = ReturnType<typeof createLogFileThread>;

export function createLogFileThread() {
  let thread: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

  function failAll(error: Error): void {
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  }

  function started(): Worker {
    if (thread) return thread;
    // Plain CommonJS, whatever flags (a TypeScript loader, --input-type) the process itself runs with.
    const worker = new Worker(THREAD_SOURCE, { eval: true, execArgv: [] });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const call = pending.get(reply.id);
      if (!call) return;
      pending.delete(reply.id);
      if (reply.error) {
        call.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
      } else call.resolve();
    });
    worker.on('error', (error) => failAll(error));
    worker.on('exit', () => {
      // A thread that ended (terminated, or failed) is started again by the next call; the file it had
      // open is opened again there (appends only ever go to the end).
      if (thread === worker) thread = undefined;
      failAll(new Error('the ingestion log thread stopped'));
    });
    thread = worker;
    return worker;
  }

  function call(message: Call): Promise<void> {
    const id = nextId++;
    return new Promise<void>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      started().postMessage({ ...message, id });
    });
  }

  return {
    /**
     * Appends `length` bytes of `shared` to `file` (opened, and its directory entry made durable, on first
     * use) and fdatasyncs it. On failure the file is cut back to `keep` bytes.
     */
    append: (file: string, shared: SharedArrayBuffer, length: number, keep: number) =>
      call({ op: 'append', file, shared, length, keep }),
    /** Closes the file being appended to, if any. */
    close: () => call({ op: 'close' }),
    unlink: (file: string) => call({ op: 'unlink', file }),
    async stop(): Promise<void> {
      const worker = thread;
      thread = undefined;
      if (worker) await worker.terminate();
    },
  };
}
