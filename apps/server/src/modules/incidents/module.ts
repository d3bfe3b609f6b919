import type { AccountDb } from '../../db/database.ts';
import type { GraphqlModule } from '../../graphql/module.ts';
import type { AuditRecorder, ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import { createIncidentAssignmentStore } from './assignments.ts';
import { incidentGraphqlModule } from './resolvers.ts';
import type { IncidentServiceDeps } from './service.ts';
import { createIncidentService, type IncidentService } from './service.ts';
import { createIncidentStateStore } from './store.ts';

export type IncidentDeps = {
  projects: ProjectAccess;
  /** The event store's read side. */
  eventStore: IncidentServiceDeps['store'];
  /** The account store keeps the owner's resolve / ignore decisions. */
  db: AccountDb;
  clock: Clock;
  audit: AuditRecorder;
};

/** The incident service and its GraphQL part, for app.ts to compose. */
export function createIncidents(deps: IncidentDeps): { service: IncidentService; graphql: GraphqlModule } {
  const service = createIncidentService({
    projects: deps.projects,
    store: deps.eventStore,
    states: createIncidentStateStore(deps.db),
    assignments: createIncidentAssignmentStore(deps.db),
    clock: deps.clock,
    audit: deps.audit,
  });
  return { service, graphql: incidentGraphqlModule({ incidents: service }) };
}
