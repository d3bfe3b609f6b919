import type { GraphqlModule } from '../../graphql/module.ts';
import type { ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AnalyticsQuestions } from '../event-store/analytics-questions.ts';
import { analyticsGraphqlModule } from './resolvers.ts';
import { type AnalyticsService, createAnalyticsService } from './service.ts';

export type AnalyticsDeps = {
  projects: ProjectAccess;
  /** The event store's read side. */
  eventStore: AnalyticsQuestions;
  clock: Clock;
};

/** The analytics service and its GraphQL part, for app.ts to compose. */
export function createAnalytics(deps: AnalyticsDeps): { service: AnalyticsService; graphql: GraphqlModule } {
  const service = createAnalyticsService({
    projects: deps.projects,
    store: deps.eventStore,
    clock: deps.clock,
  });
  return { service, graphql: analyticsGraphqlModule({ analytics: service }) };
}
