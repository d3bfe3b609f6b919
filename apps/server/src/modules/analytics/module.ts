import type { DuckDBConnection } from '@duckdb/node-api';
import type { Project } from '@polyflow/contracts/projects';
import type { GraphqlModule } from '../../graphql/module.ts';
import type { Clock } from '../../lib/clock.ts';
import { createConnectionPool } from '../event-store/duckdb/connection-pool.ts';
import { analyticsGraphqlModule } from './resolvers.ts';
import { type AnalyticsService, createAnalyticsService } from './service.ts';

export type AnalyticsDeps = {
  projects: { getOwnedProject(userId: string, projectId: string): Promise<Project> };
  /** The DuckDB event store: analytics reads through connections of the same instance. */
  eventStore: { connect(): Promise<DuckDBConnection> };
  clock: Clock;
};

/** The analytics service and its GraphQL part, for app.ts to compose. Close before the event store. */
export function createAnalytics(deps: AnalyticsDeps): {
  service: AnalyticsService;
  graphql: GraphqlModule;
  close(): void;
} {
  const pool = createConnectionPool(() => deps.eventStore.connect());
  const service = createAnalyticsService({ projects: deps.projects, pool, clock: deps.clock });
  return { service, graphql: analyticsGraphqlModule({ analytics: service }), close: () => pool.close() };
}
