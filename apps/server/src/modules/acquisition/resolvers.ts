import type { IResolvers } from 'mercurius';
import { z } from 'zod';
import type { GraphqlModule } from '../../graphql/module.ts';
import { ComparableRangeArgs, userQuery as query, RangeArgs, text } from '../../reading/resolver.ts';
import { acquisitionTypeDefs } from './schema.ts';
import type { AcquisitionService } from './service.ts';

// The filters themselves are checked by the service against the contract (AcquisitionFiltersSchema).
const FunnelArgs = ComparableRangeArgs.extend({ filters: z.unknown().optional() });
const AttributionArgs = FunnelArgs.extend({ dimension: text(32) });

export function acquisitionGraphqlModule({
  acquisition,
}: {
  acquisition: AcquisitionService;
}): GraphqlModule {
  const resolvers: IResolvers = {
    Query: {
      acquisitionFunnel: query(FunnelArgs, (userId, args) => acquisition.funnel(userId, args)),
      attribution: query(AttributionArgs, (userId, args) => acquisition.attribution(userId, args)),
      acquisitionFilterOptions: query(RangeArgs, (userId, args) => acquisition.filterOptions(userId, args)),
    },
  };
  return { typeDefs: acquisitionTypeDefs, resolvers };
}
