import { type ChildProcess, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { EventStore } from '../../src/modules/event-store/event-store.ts';
import { seedProject } from '../support/seed-project.ts';

const generatorScript = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../support/paced-load-process.ts',
);

/** What the load generator sent and what came back while the dashboard questions were timed. */
export type IngestionFigures = {
  seconds: number;
  acknowledgedPerSecond: number;
  refusals: Map<number, number>;
  requests: number;
};

type Slice = {
  requests: number;
  events: number;
  errors: number;
  refusals: [number, number][];
  seconds: number;
};

/**
 * The budget's "also while ingestion runs" (DESIGN.md): the real server (buildApp: routes, validation, the
 * fsync'd log, group commit, the background loader) in this process, over the very store whose questions
 * the bench times, listening on a free port, and the ingest bench's load generator (bench/support/load.ts)
 * in a process of its own, paced at `eventsPerSecond` into a project seeded in `dataDir`. Timed questions
 * then share the JavaScript thread, the engine and the 2 cores with ingestion, as on a serving node.
 *
 * The store is lent: closing the server leaves it open, and its background maintenance (re-clustering) is
 * not started, so that a rewrite of the 10 M file does not fall into a one-minute measurement.
 */
export async function startIngestion(
  store: EventStore,
  dataDir: string,
  eventsPerSecond: number,
): Promise<{ startMeasuring(): void; stop(): Promise<IngestionFigures> }> {
  const project = await seedProject(dataDir);
  const lent: EventStore = Object.create(store, {
    close: { value: async () => undefined },
    startMaintenance: { value: () => ({ stop: async () => undefined }) },
  });
  const app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), {
    eventStore: async () => lent,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const generator: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      generatorScript,
      `http://127.0.0.1:${port}`,
      JSON.stringify(project),
      String(eventsPerSecond),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let measuring = false;
  const slices: Slice[] = [];
  createInterface({ input: generator.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (measuring) slices.push(JSON.parse(line) as Slice);
  });
  return {
    startMeasuring() {
      measuring = true;
    },
    async stop() {
      const exited = new Promise((resolve) => generator.once('exit', resolve));
      generator.kill();
      await exited;
      // Answers what is waiting and loads the log into the store (which stays open).
      await app.close();
      // The ingested project's events leave the file as it was for the next run's targets.
      await store.deleteProjectEvents(project.projectId);
      const refusals = new Map<number, number>();
      for (const slice of slices)
        for (const [status, count] of slice.refusals)
          refusals.set(status, (refusals.get(status) ?? 0) + count);
      const seconds = slices.reduce((sum, slice) => sum + slice.seconds, 0);
      const events = slices.reduce((sum, slice) => sum + slice.events, 0);
      return {
        seconds,
        acknowledgedPerSecond: seconds > 0 ? events / seconds : 0,
        refusals,
        requests: slices.reduce((sum, slice) => sum + slice.requests + slice.errors, 0),
      };
    },
  };
}
