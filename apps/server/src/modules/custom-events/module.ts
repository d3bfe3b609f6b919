import type { GraphqlModule } from '../../graphql/module.ts';
import type { ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CustomEventQuestions } from '../event-store/custom-event-questions.ts';
import { customEventsGraphqlModule } from './resolvers.ts';
import { type CustomEventsService, createCustomEventsService } from './service.ts';

export type CustomEventsDeps = { projects: ProjectAccess; eventStore: CustomEventQuestions; clock: Clock };

/** The Events screen's service and GraphQL part (custom events and identify), for app.ts to compose. */
export function createCustomEvents(deps: CustomEventsDeps): {
  service: CustomEventsService;
  graphql: GraphqlModule;
} {
  const service = createCustomEventsService({
    projects: deps.projects,
    store: deps.eventStore,
    clock: deps.clock,
  });
  return { service, graphql: customEventsGraphqlModule({ customEvents: service }) };
}
