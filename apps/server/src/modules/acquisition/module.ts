import type { DuckDBConnection } from '@duckdb/node-api';
import type { Project } from '@polyflow/contracts/projects';
import type { GraphqlModule } from '../../graphql/module.ts';
import type { Clock } from '../../lib/clock.ts';
import { createConnectionPool } from '../event-store/duckdb/connection-pool.ts';
import { acquisitionGraphqlModule } from './resolvers.ts';
import { type AcquisitionService, createAcquisitionService } from './service.ts';

export type AcquisitionDeps = {
  projects: { getOwnedProject(userId: string, projectId: string): Promise<Project> };
  /** The DuckDB event store: the queries read through connections of the same instance. */
  eventStore: { connect(): Promise<DuckDBConnection> };
  clock: Clock;
};

/** The acquisition service and its GraphQL part, for app.ts to compose. Close before the event store. */
export function createAcquisition(deps: AcquisitionDeps): {
  service: AcquisitionService;
  graphql: GraphqlModule;
  close(): void;
} {
  const pool = createConnectionPool(() => deps.eventStore.connect(), 2);
  const service = createAcquisitionService({ projects: deps.projects, pool, clock: deps.clock });
  return { service, graphql: acquisitionGraphqlModule({ acquisition: service }), close: () => pool.close() };
}
