import type { DuckDBConnection } from '@duckdb/node-api';
import type { Project } from '@polyflow/contracts/projects';
import type { GraphqlModule } from '../../graphql/module.ts';
import type { Clock } from '../../lib/clock.ts';
import { createConnectionPool } from '../event-store/duckdb/connection-pool.ts';
import { incidentGraphqlModule } from './resolvers.ts';
import { createIncidentService, type IncidentService } from './service.ts';

export type IncidentDeps = {
  projects: { getOwnedProject(userId: string, projectId: string): Promise<Project> };
  /** The DuckDB event store: the queries read through connections of the same instance. */
  eventStore: { connect(): Promise<DuckDBConnection> };
  clock: Clock;
};

/** The incident service and its GraphQL part, for app.ts to compose. Close before the event store. */
export function createIncidents(deps: IncidentDeps): {
  service: IncidentService;
  graphql: GraphqlModule;
  close(): void;
} {
  const pool = createConnectionPool(() => deps.eventStore.connect(), 2);
  const service = createIncidentService({ projects: deps.projects, pool, clock: deps.clock });
  return { service, graphql: incidentGraphqlModule({ incidents: service }), close: () => pool.close() };
}
