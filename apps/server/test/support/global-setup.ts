import type { TestProject } from 'vitest/node';
import { type ChdbProcess, startChdbProcess } from './chdb-process.ts';
import { startPostgres, type ThrowawayPostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's throwaway PostgreSQL; tests create their own database in it. */
    postgresAdminUrl: string;
    /**
     * With EVENT_STORE=clickhouse: the run's chdb HTTP server (`http://user:password@host:port`); each
     * event store takes a database of its own in it.
     */
    clickhouseServerUrl: string;
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

function usePostgres(): { started: Promise<ThrowawayPostgres>; release(): Promise<void> } {
  shared.polyflowTestPostgres ??= { started: startPostgres(), users: 0 };
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

export default async function setup(project: TestProject) {
  const postgres = usePostgres();
  // EVENT_STORE from the project's own env (the root config's server-clickhouse project) or the shell's.
  const eventStore = project.config.env?.EVENT_STORE ?? process.env.EVENT_STORE;
  // chdb starts while PostgreSQL does (each mostly waits on its own process).
  const [pg, chdb] = await Promise.allSettled([
    postgres.started,
    eventStore === 'clickhouse' ? startChdbProcess() : Promise.resolve(undefined),
  ]);
  if (pg.status === 'rejected' || chdb.status === 'rejected') {
    if (chdb.status === 'fulfilled') await chdb.value?.stop();
    await postgres.release().catch(() => undefined);
    throw pg.status === 'rejected' ? pg.reason : (chdb as PromiseRejectedResult).reason;
  }
  const clickhouse: ChdbProcess | undefined = chdb.value;
  project.provide('postgresAdminUrl', pg.value.adminUrl);
  project.provide('clickhouseServerUrl', clickhouse?.url ?? '');
  return async () => {
    await clickhouse?.stop();
    await postgres.release();
  };
}
