/**
 * `npm run bench:copy`: seeds an embedded DuckDB event store with demo traffic (10 projects, 90 days,
 * loaded through the store's write side as ingestion loads it), copies it with `copy-events` into
 * ClickHouse (the chdb engine behind ClickHouse's HTTP interface, test/support/chdb-process.ts), and
 * prints how long each step took and whether every project holds the same events on both sides.
 *
 * Options: --events <count> (about; default 1000000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { replaceDemoEvents } from '../scripts/demo/demo-events.ts';
import { copyEvents, describeCopy } from '../src/admin/copy-events.ts';
import { targetName } from '../src/admin/copy-to-clickhouse.ts';
import { openDuckDbCopySource } from '../src/admin/duckdb-copy-source.ts';
import { createProgress } from '../src/admin/progress.ts';
import { createClickHouseEventStore } from '../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { createDuckDbEventStore } from '../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { startChdbProcess } from '../test/support/chdb-process.ts';

const { values } = parseArgs({ options: { events: { type: 'string', default: '1000000' } } });
const TARGET_EVENTS = Number(values.events);
const PROJECTS = 10;
const DAYS = 90;
/** Demo events per user and day (measured on the demo generator). */
const EVENTS_PER_USER_DAY = 0.6;
const END_MS = Date.UTC(2026, 10, 1);

const seconds = (startedMs: number) => `${((performance.now() - startedMs) / 1000).toFixed(1)} s`;
const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bench-copy-'));
  const chdb = await startChdbProcess({ dataPath: path.join(dir, 'chdb') });
  try {
    const file = path.join(dir, 'events.duckdb');
    const projects = Array.from({ length: PROJECTS }, () => crypto.randomUUID());
    const users = Math.max(10, Math.round(TARGET_EVENTS / (PROJECTS * DAYS * EVENTS_PER_USER_DAY)));
    let started = performance.now();
    const source = await createDuckDbEventStore({ file });
    let seeded = 0;
    try {
      for (const [index, projectId] of projects.entries()) {
        seeded += await replaceDemoEvents(source, projectId, {
          endMs: END_MS,
          days: DAYS,
          users,
          seed: index + 1,
        });
      }
    } finally {
      await source.close();
    }
    log(
      `seeded ${seeded.toLocaleString('en-US')} events (${PROJECTS} projects, ${DAYS} days) in ${seconds(started)}`,
    );

    const url = `${chdb.url}/polyflow_copy`;
    const target = await createClickHouseEventStore(url);
    const reader = await openDuckDbCopySource(file);
    try {
      const pass = async () => {
        started = performance.now();
        const report = await copyEvents({
          source: reader,
          target,
          checkpointFile: path.join(dir, 'copy-events.checkpoint.json'),
          targetName: targetName(url),
          workDir: dir,
          progress: createProgress(process.stderr),
        });
        const took = (performance.now() - started) / 1000;
        log(describeCopy(report));
        log(
          `pass: ${took.toFixed(1)} s, ${Math.round(report.eventsCopied / took).toLocaleString('en-US')} events/s`,
        );
      };
      await pass();
      await pass();
      started = performance.now();
      const inSource = new Map<string, number>();
      for (const slice of await reader.slices()) {
        inSource.set(slice.projectId, (inSource.get(slice.projectId) ?? 0) + slice.events);
      }
      let same = 0;
      for (const projectId of projects) {
        const copied = (await target.projectEvents(projectId)).length;
        if (copied === inSource.get(projectId)) same++;
        else
          log(`project ${projectId}: ${inSource.get(projectId)} events in DuckDB, ${copied} in ClickHouse`);
      }
      log(
        `${same} of ${PROJECTS} projects hold the same events count on both sides (checked in ${seconds(started)})`,
      );
    } finally {
      await reader.close();
      await target.close();
    }
  } finally {
    await chdb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
