import type { AccountDb } from '../../db/database.ts';
import type { GraphqlModule } from '../../graphql/module.ts';
import type { AuditRecorder, ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FunnelQuestions } from '../event-store/funnel-questions.ts';
import { funnelsGraphqlModule } from './resolvers.ts';
import { createFunnelService, type FunnelService } from './service.ts';
import { createFunnelStore } from './store.ts';

export type FunnelsDeps = {
  db: AccountDb;
  projects: ProjectAccess;
  eventStore: FunnelQuestions;
  audit: AuditRecorder;
  clock: Clock;
};

/** Custom funnels' service and GraphQL part, for app.ts to compose; the REST routes are in routes.ts. */
export function createFunnels(deps: FunnelsDeps): { service: FunnelService; graphql: GraphqlModule } {
  const service = createFunnelService({
    store: createFunnelStore(deps.db),
    projects: deps.projects,
    events: deps.eventStore,
    audit: deps.audit,
    clock: deps.clock,
  });
  return { service, graphql: funnelsGraphqlModule({ funnels: service }) };
}
