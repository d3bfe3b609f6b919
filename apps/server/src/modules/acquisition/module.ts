import type { GraphqlModule } from '../../graphql/module.ts';
import type { ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import { acquisitionGraphqlModule } from './resolvers.ts';
import type { AcquisitionServiceDeps } from './service.ts';
import { type AcquisitionService, createAcquisitionService } from './service.ts';

export type AcquisitionDeps = {
  projects: ProjectAccess;
  /** The event store's read side. */
  eventStore: AcquisitionServiceDeps['store'];
  clock: Clock;
};

/** The acquisition service and its GraphQL part, for app.ts to compose. */
export function createAcquisition(deps: AcquisitionDeps): {
  service: AcquisitionService;
  graphql: GraphqlModule;
} {
  const service = createAcquisitionService({
    projects: deps.projects,
    store: deps.eventStore,
    clock: deps.clock,
  });
  return { service, graphql: acquisitionGraphqlModule({ acquisition: service }) };
}
