import type { AccountDb } from '../../db/database.ts';
import type { GraphqlModule } from '../../graphql/module.ts';
import type { AuditRecorder, ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import type { GoalQuestions } from '../event-store/goal-questions.ts';
import { goalsGraphqlModule } from './resolvers.ts';
import { createGoalService, type GoalService } from './service.ts';
import { createGoalStore } from './store.ts';

export type GoalsDeps = {
  db: AccountDb;
  projects: ProjectAccess;
  audit: AuditRecorder;
  eventStore: GoalQuestions;
  clock: Clock;
};

/** Goals: their service (REST routes in routes.ts) and GraphQL part, for app.ts to compose. */
export function createGoals(deps: GoalsDeps): { service: GoalService; graphql: GraphqlModule } {
  const service = createGoalService({
    store: createGoalStore(deps.db),
    projects: deps.projects,
    audit: deps.audit,
    events: deps.eventStore,
    clock: deps.clock,
  });
  return { service, graphql: goalsGraphqlModule({ goals: service }) };
}
