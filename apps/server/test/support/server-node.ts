import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverCommand } from './server-command.ts';

const serverRoot = path.resolve(import.meta.dirname, '../..');

/** One log line of the server (pino JSON). */
export type LogLine = { msg?: string; job?: string; [field: string]: unknown };

/** A real server process (src/main.ts through tsx, or the built dist/main.js: server-command.ts), one node of a deployment, with its own DATA_DIR. */
export type ServerNode = {
  name: string;
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Every JSON log line so far. */
  logs(): LogLine[];
  /** Resolves with the first log line that matches, one already written included. */
  waitForLog(match: (line: LogLine) => boolean, withinMs: number): Promise<LogLine>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown at all, as a crash or the OOM killer. */
  kill9(): Promise<void>;
  /** Removes the DATA_DIR (after the node stopped). */
  remove(): void;
};

export type ServerNodeOptions = {
  name: string;
  /** Variables every node of the deployment shares (DATABASE_URL, JWT_SECRET, CLICKHOUSE_URL, ...). */
  env: Record<string, string>;
  /** Start on this DATA_DIR (a node coming back after a crash); default a new temp directory. */
  dataDir?: string;
};

/** Starts a node and resolves once it listens (it printed its address). */
export async function startServerNode(options: ServerNodeOptions): Promise<ServerNode> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), `polyflow-${options.name}-`));
  const child = spawn(process.execPath, serverCommand('main'), {
    cwd: serverRoot,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CONSOLE_DIR: path.join(dataDir, 'no-console'),
      LOG_LEVEL: 'info',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  let stderr = '';
  let partial = '';
  const waiters = new Set<{ match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }>();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const text = partial + chunk;
    const complete = text.split('\n');
    partial = complete.pop() ?? '';
    for (const raw of complete) {
      let line: LogLine;
      try {
        line = JSON.parse(raw) as LogLine;
      } catch {
        line = { msg: raw };
      }
      lines.push(line);
      for (const waiter of waiters) {
        if (waiter.match(line)) {
          waiters.delete(waiter);
          waiter.resolve(line);
        }
      }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  function waitForLog(match: (line: LogLine) => boolean, withinMs: number): Promise<LogLine> {
    const written = lines.find(match);
    if (written) return Promise.resolve(written);
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        resolve(line: LogLine) {
          clearTimeout(timer);
          resolve(line);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`${options.name}: no matching log line within ${withinMs} ms.\n${stderr}`));
      }, withinMs);
      waiters.add(waiter);
    });
  }

  const listening = await Promise.race([
    waitForLog((line) => /listening on http:\/\//.test(line.msg ?? ''), 60_000),
    exited.then(() => {
      throw new Error(`${options.name} exited during start-up:\n${stderr}`);
    }),
  ]);
  const url = /listening on (http:\/\/[\d.]+:\d+)/.exec(listening.msg ?? '')?.[1] as string;
  return {
    name: options.name,
    url,
    dataDir,
    child,
    logs: () => [...lines],
    waitForLog,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    remove() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The log line a node writes when it starts running a once-only background job (db/leadership.ts). */
export const startedJob = (job: string) => (line: LogLine) =>
  line.job === job && line.msg === 'this node now runs the background job';
