import type { IResolvers } from 'mercurius';
import { z } from 'zod';
import type { GraphqlModule } from '../../graphql/module.ts';
import { ComparableRangeArgs, userQuery as query, RangeArgs, text } from '../../reading/resolver.ts';
import { customEventsTypeDefs } from './schema.ts';
import type { CustomEventsService } from './service.ts';

const BreakdownArgs = RangeArgs.extend({
  name: text(256),
  key: text(256),
  limit: z.number().int().min(1).max(100),
});
const SeriesArgs = RangeArgs.extend({ name: text(256), timeZone: text(64).nullish() });

export function customEventsGraphqlModule({
  customEvents,
}: {
  customEvents: CustomEventsService;
}): GraphqlModule {
  const resolvers: IResolvers = {
    Query: {
      customEvents: query(ComparableRangeArgs, (userId, { projectId, ...input }) =>
        customEvents.counts(userId, projectId, input),
      ),
      customEventBreakdown: query(BreakdownArgs, (userId, { projectId, ...input }) =>
        customEvents.breakdown(userId, projectId, input),
      ),
      customEventSeries: query(SeriesArgs, (userId, { projectId, ...input }) =>
        customEvents.series(userId, projectId, input),
      ),
    },
  };
  return { typeDefs: customEventsTypeDefs, resolvers };
}
