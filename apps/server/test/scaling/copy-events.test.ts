import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { replaceDemoEvents } from '../../scripts/demo/demo-events.ts';
import { type CopyReport, copyEvents, describeCopy } from '../../src/admin/copy-events.ts';
import { openDuckDbCopySource } from '../../src/admin/duckdb-copy-source.ts';
import { createProgress } from '../../src/admin/progress.ts';
import { createClickHouseEventStore } from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import {
  createDuckDbEventStore,
  type DuckDbEventStore,
} from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import { eventRow } from '../analytics/events-fixture.ts';
import { templatedClickHouseStore } from '../support/chdb-template.ts';
import { dashboardAnswers } from '../support/dashboard-answers.ts';
import { storeRows } from '../support/event-stores.ts';
import { serverCommand } from '../support/server-command.ts';
import { workerChdb } from '../support/worker-chdb.ts';

/**
 * `copy-events` (docs/scaling.md, moving over): an embedded DuckDB store copied slice by slice, resumable,
 * never twice; the copy answers every dashboard question as the source does.
 */
const scratch = mkdtempSync(path.join(os.tmpdir(), 'polyflow-copy-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const END_MS = Date.UTC(2026, 10, 1);
const PROJECTS = [randomUUID(), randomUUID()];

/** The seeded store's directory, made once for the file's tests: each test takes a copy of it. */
let seededDir: Promise<string> | undefined;

async function seedSourceDir(): Promise<string> {
  const dir = mkdtempSync(path.join(scratch, 'seeded-'));
  const store = await createDuckDbEventStore({ file: path.join(dir, 'events.duckdb') });
  try {
    for (const [index, projectId] of PROJECTS.entries()) {
      await replaceDemoEvents(store, projectId, { endMs: END_MS, days: 12, users: 40, seed: 7 + index });
    }
  } finally {
    await store.close();
  }
  return dir;
}

/** A DuckDB event store file holding two projects of demo traffic (every screen has data), a test's own. */
async function seededSourceFile(): Promise<string> {
  seededDir ??= seedSourceDir();
  const dir = mkdtempSync(path.join(scratch, 'source-'));
  cpSync(await seededDir, dir, { recursive: true });
  return path.join(dir, 'events.duckdb');
}

const quiet = () => createProgress({ isTTY: false, write: () => true });
const byId = (rows: EventRow[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));

async function withStore<T>(file: string, use: (store: DuckDbEventStore) => Promise<T>): Promise<T> {
  const store = await createDuckDbEventStore({ file });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

describe('copy-events', () => {
  it('copies a DuckDB store into ClickHouse, resumes after an interruption, never twice, and every dashboard answers the same', async () => {
    const sourceFile = await seededSourceFile();
    const before = await withStore(sourceFile, async (store) => ({
      answers: await Promise.all(PROJECTS.map((projectId) => dashboardAnswers(store, projectId))),
      rows: await Promise.all(PROJECTS.map(async (projectId) => byId(await store.projectEvents(projectId)))),
    }));
    expect(before.rows[0]?.length).toBeGreaterThan(200);
    const first = before.answers[0] as Record<string, unknown[]>;
    for (const name of ['incidentSummaries', 'transactionHistory', 'topPages all', 'sessionTrail']) {
      expect(first[name]?.length, name).toBeGreaterThan(0);
    }

    const dir = mkdtempSync(path.join(scratch, 'copy-'));
    const checkpointFile = path.join(dir, 'checkpoint.json');
    const chdb = await workerChdb();
    const target = await templatedClickHouseStore(`${chdb.url}/pf_copy_resume`);
    try {
      const pass = async (maxSlices?: number): Promise<CopyReport> => {
        const source = await openDuckDbCopySource(sourceFile);
        try {
          return await copyEvents({
            source,
            target,
            checkpointFile,
            targetName: 'clickhouse:target',
            workDir: dir,
            progress: quiet(),
            maxSlices,
            // Several slices per load, and several loads per pass.
            loadEvents: 40,
          });
        } finally {
          await source.close();
        }
      };

      // Interrupted after 5 project-days; the checkpoint remembers them.
      const interrupted = await pass(5);
      expect(interrupted.slicesCopied).toBe(5);
      expect(interrupted.slices).toBeGreaterThan(10);
      const [head, ...copied] = readFileSync(checkpointFile, 'utf8').trim().split('\n');
      expect(JSON.parse(head as string)).toEqual({ target: 'clickhouse:target' });
      expect(copied).toHaveLength(5);
      expect(describeCopy(interrupted)).toContain('run this command again');

      const resumed = await pass();
      expect(resumed.slicesCopied).toBe(interrupted.slices - 5);
      expect(resumed.eventsCopied + interrupted.eventsCopied).toBe(resumed.eventsInSource);
      expect(resumed.isSourceUnchanged).toBe(true);

      const final = await pass();
      expect(final.slicesCopied).toBe(0);
      expect(describeCopy(final)).toContain('safe to switch');

      // Without its checkpoint the copy starts again, and ClickHouse keeps each event once.
      rmSync(checkpointFile);
      const again = await pass();
      expect(again.eventsCopied).toBe(resumed.eventsInSource);

      for (const [index, projectId] of PROJECTS.entries()) {
        expect(byId(await target.projectEvents(projectId))).toEqual(before.rows[index]);
        expect(await dashboardAnswers(target, projectId)).toEqual(before.answers[index]);
      }

      // Events that arrive in the source after a pass: the next pass copies only their project-day.
      const late = [
        eventRow(PROJECTS[0] as string, new Date(END_MS + 3_600_000).toISOString(), 'u1', 'page_view', {
          id: 'late-1',
        }),
      ];
      await withStore(sourceFile, (store) => storeRows(store, late));
      const catchUp = await pass();
      expect(catchUp.slicesCopied).toBe(1);
      expect(catchUp.eventsCopied).toBe(1);
      expect((await target.projectEvents(PROJECTS[0] as string)).some((row) => row.id === 'late-1')).toBe(
        true,
      );
    } finally {
      await target.close();
    }
  }, 300_000);

  it('says so when the source is in use by a running server', async () => {
    const sourceFile = await seededSourceFile();
    const running = await createDuckDbEventStore({ file: sourceFile });
    try {
      const [, result] = await Promise.allSettled([
        Promise.resolve(),
        promisify(execFile)(process.execPath, serverCommand('admin', 'copy-events', '--to-clickhouse'), {
          cwd: path.resolve(import.meta.dirname, '../..'),
          env: {
            ...process.env,
            DATA_DIR: path.dirname(sourceFile),
            CLICKHOUSE_URL: 'http://polyflow:x@127.0.0.1:1/polyflow',
          },
        }),
      ]);
      expect(result.status).toBe('rejected');
      const stderr = (result as PromiseRejectedResult).reason.stderr as string;
      expect(stderr).toContain('in use by a running Polyflow server');
    } finally {
      await running.close();
    }
  }, 60_000);
});

describe('npm run admin -- copy-events --to-clickhouse', () => {
  it('copies a DuckDB store into ClickHouse (chdb over HTTP) with progress lines, continues after kill -9, and the rows are the same', async () => {
    const sourceFile = await seededSourceFile();
    const dataDir = path.dirname(sourceFile);
    const checkpointFile = path.join(dataDir, 'copy-events.checkpoint.json');
    const before = await withStore(sourceFile, (store) =>
      Promise.all(PROJECTS.map(async (projectId) => byId(await store.projectEvents(projectId)))),
    );
    const chdb = await workerChdb();
    const clickhouseUrl = `${chdb.url}/pf_copy`;
    const cwd = path.resolve(import.meta.dirname, '../..');
    const env = { ...process.env, DATA_DIR: dataDir, CLICKHOUSE_URL: clickhouseUrl };
    const command = (...options: string[]) =>
      serverCommand('admin', 'copy-events', '--to-clickhouse', ...options);
    const slicesInCheckpoint = () =>
      existsSync(checkpointFile) ? readFileSync(checkpointFile, 'utf8').split('\n').length - 2 : 0;
    // One project-day per insert, killed once a few are in: what a crash or a Ctrl-\ leaves.
    const killed = spawn(process.execPath, command('--load-events', '1'), { cwd, env, stdio: 'ignore' });
    const exited = new Promise((resolve) => killed.once('exit', resolve));
    const deadline = Date.now() + 120_000;
    while (slicesInCheckpoint() < 3 && Date.now() < deadline && killed.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    killed.kill('SIGKILL');
    await exited;
    expect(killed.signalCode).toBe('SIGKILL');
    const copiedBeforeKill = slicesInCheckpoint();
    expect(copiedBeforeKill).toBeGreaterThanOrEqual(3);

    const run = () => promisify(execFile)(process.execPath, command(), { cwd, env });
    const first = await run();
    expect(first.stderr).toMatch(/events were copied before; continuing/);
    // Not a terminal: progress lines, the last at 100 %.
    expect(first.stderr).toMatch(/copy-events: 100\.0 % \([\d,]+ of [\d,]+ events/);
    const [, copiedNow, slices] = /\((\d+) of (\d+) project-days\)/.exec(first.stdout) ?? [];
    expect(Number(copiedNow)).toBeGreaterThan(0);
    expect(Number(copiedNow)).toBeLessThanOrEqual(Number(slices) - copiedBeforeKill);
    expect(first.stdout).toContain('Everything the source holds is copied');

    const second = await run();
    expect(second.stdout).toContain('0 events copied in this pass');
    expect(second.stdout).toContain('safe to switch');

    const target = await createClickHouseEventStore(clickhouseUrl);
    try {
      for (const [index, projectId] of PROJECTS.entries()) {
        expect(byId(await target.projectEvents(projectId))).toEqual(before[index]);
      }
    } finally {
      await target.close();
    }
  }, 180_000);
});
