import type { TestProject } from 'vitest/node';
import { type ChdbProcess, startChdbProcess } from './chdb-process.ts';
import { startPostgres } from './postgres.ts';

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

export default async function setup(project: TestProject) {
  const postgres = await startPostgres();
  project.provide('postgresAdminUrl', postgres.adminUrl);
  let chdb: ChdbProcess | undefined;
  // EVENT_STORE from the project's own env (the root config's server-clickhouse project) or the shell's.
  const eventStore = project.config.env?.EVENT_STORE ?? process.env.EVENT_STORE;
  if (eventStore === 'clickhouse') {
    chdb = await startChdbProcess();
    project.provide('clickhouseServerUrl', chdb.url);
  } else project.provide('clickhouseServerUrl', '');
  return async () => {
    await chdb?.stop();
    await postgres.stop();
  };
}
