import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { type ChdbProcess, startChdbProcess } from './chdb-process.ts';
import { template } from './chdb-template.ts';
import { createMigratedTemplate, startPostgres, type ThrowawayPostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's throwaway PostgreSQL; tests create their own database in it. */
    postgresAdminUrl: string;
    /**
     * With EVENT_STORE=clickhouse: the run's chdb HTTP servers (`http://user:password@host:port`), one per
     * vitest worker (`VITEST_POOL_ID` n uses the n-th): chdb answers one query at a time, so the workers
     * would otherwise wait for each other's queries. Each event store takes a database of its own in its
     * worker's server. Also given to the other projects of the run that use this setup (the server
     * project's ClickHouse files: worker-chdb.ts), so that they start no engines of their own (ADR 120).
     */
    clickhouseServerUrls: string[];
    /** Where each worker makes its data directory template (data-dir-template.ts), removed after the run. */
    dataDirTemplates: string;
  }
}

/**
 * The run's one PostgreSQL, shared by the projects that use this setup (`server` and `server-clickhouse`
 * in one `vitest run`): vitest runs each project's global setup in its main process, one after another,
 * and every test file creates a database of its own in it, so a second cluster would only add its
 * initdb, start and stop to the run. Kept on globalThis, which both projects' setup modules share; the
 * last project to tear down stops it.
 */
type SharedPostgres = { started: Promise<ThrowawayPostgres>; users: number };
const shared = globalThis as { polyflowTestPostgres?: SharedPostgres };

/** The cluster with its migrated template database, which the test servers' databases copy (ADR 150). */
async function withMigratedTemplate(postgres: ThrowawayPostgres): Promise<ThrowawayPostgres> {
  try {
    await createMigratedTemplate(postgres.adminUrl);
  } catch (error) {
    await postgres.stop();
    throw error;
  }
  return postgres;
}

function usePostgres(): { started: Promise<ThrowawayPostgres>; release(): Promise<void> } {
  shared.polyflowTestPostgres ??= { started: startPostgres().then(withMigratedTemplate), users: 0 };
  const entry = shared.polyflowTestPostgres;
  entry.users++;
  return {
    started: entry.started,
    async release() {
      entry.users--;
      if (entry.users > 0) return;
      if (shared.polyflowTestPostgres === entry) shared.polyflowTestPostgres = undefined;
      await (await entry.started).stop();
    },
  };
}

/**
 * The chdb servers of the run's ClickHouse project, for every project of the run that uses this setup:
 * vitest creates a project's test files' tasks, with what its setup provided, once every project's setup
 * has run, so a project set up before the ClickHouse project gets them too. Kept on globalThis as
 * PostgreSQL is.
 */
type SharedChdbUrls = { urls: string[]; projects: TestProject[] };
const run = globalThis as { polyflowTestChdbUrls?: SharedChdbUrls };

function shareChdbUrls(project: TestProject, urls: string[] = []): () => void {
  run.polyflowTestChdbUrls ??= { urls: [], projects: [] };
  const entry = run.polyflowTestChdbUrls;
  entry.projects.push(project);
  if (urls.length > 0) entry.urls = urls;
  for (const user of entry.projects) user.provide('clickhouseServerUrls', entry.urls);
  return () => {
    entry.projects = entry.projects.filter((user) => user !== project);
    if (urls.length > 0) entry.urls = [];
    if (entry.projects.length === 0 && run.polyflowTestChdbUrls === entry)
      run.polyflowTestChdbUrls = undefined;
  };
}

export default async function setup(project: TestProject) {
  const postgres = usePostgres();
  // EVENT_STORE from the project's own env (the root config's server-clickhouse project) or the shell's.
  const eventStore = project.config.env?.EVENT_STORE ?? process.env.EVENT_STORE;
  // One chdb per worker (ADR 104), started while PostgreSQL does (each mostly waits on its own process).
  const workers = eventStore === 'clickhouse' ? Math.max(1, project.globalConfig.maxWorkers) : 0;
  const [pg, ...chdbs] = await Promise.allSettled([
    postgres.started,
    // Each engine's migrated template for the test databases (chdb-template.ts), made as it starts.
    ...Array.from({ length: workers }, () =>
      // No JIT: a test engine's statements run too few times to repay compiling them (ADR 131).
      startChdbProcess({ jit: false }).then(async (chdb) => {
        await template(`${chdb.url}/default`).catch(async (error: unknown) => {
          await chdb.stop();
          throw error;
        });
        return chdb;
      }),
    ),
  ]);
  const clickhouse = chdbs.flatMap((chdb) =>
    chdb.status === 'fulfilled' ? [chdb.value as ChdbProcess] : [],
  );
  const failed = [pg, ...chdbs].find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.all(clickhouse.map((chdb) => chdb.stop()));
    await postgres.release().catch(() => undefined);
    throw (failed as PromiseRejectedResult).reason;
  }
  project.provide('postgresAdminUrl', (pg as PromiseFulfilledResult<ThrowawayPostgres>).value.adminUrl);
  // The workers' data directory templates: vitest ends its workers without their exit handlers.
  const dataDirTemplates = mkdtempSync(path.join(os.tmpdir(), 'polyflow-templates-'));
  project.provide('dataDirTemplates', dataDirTemplates);
  const unshare = shareChdbUrls(
    project,
    clickhouse.map((chdb) => chdb.url),
  );
  return async () => {
    rmSync(dataDirTemplates, { recursive: true, force: true });
    unshare();
    await Promise.all(clickhouse.map((chdb) => chdb.stop()));
    await postgres.release();
  };
}
