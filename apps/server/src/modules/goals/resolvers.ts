import type { IResolvers } from 'mercurius';
import { z } from 'zod';
import type { GraphqlModule } from '../../graphql/module.ts';
import { ComparableRangeArgs, userQuery as query, text } from '../../reading/resolver.ts';
import { goalsTypeDefs } from './schema.ts';
import type { GoalService } from './service.ts';

const ListArgs = z.object({ projectId: text(64) });
// The filters themselves are checked by the service against the contract (AcquisitionFiltersSchema).
const AttributionArgs = ComparableRangeArgs.extend({
  goalId: text(64),
  dimension: text(32),
  filters: z.unknown().optional(),
});

export function goalsGraphqlModule({ goals }: { goals: GoalService }): GraphqlModule {
  const resolvers: IResolvers = {
    Query: {
      goals: query(ListArgs, (userId, { projectId }) => goals.list(userId, projectId)),
      goalConversions: query(ComparableRangeArgs, (userId, { projectId, ...input }) =>
        goals.conversions(userId, projectId, input),
      ),
      goalAttribution: query(AttributionArgs, (userId, { projectId, ...input }) =>
        goals.attribution(userId, projectId, input),
      ),
    },
  };
  return { typeDefs: goalsTypeDefs, resolvers };
}
