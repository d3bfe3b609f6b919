import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's throwaway PostgreSQL; tests create their own database in it. */
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const postgres = await startPostgres();
  project.provide('postgresAdminUrl', postgres.adminUrl);
  return async () => {
    await postgres.stop();
  };
}
