import { AttributionDimensions } from '@polyflow/contracts/acquisition';
import type { IResolvers } from 'mercurius';
import { z } from 'zod';
import type { GraphqlModule } from '../../graphql/module.ts';
import { userQuery as query, RangeArgs, text } from '../../reading/resolver.ts';
import { funnelsTypeDefs } from './schema.ts';
import type { FunnelService } from './service.ts';

const ResultArgs = RangeArgs.extend({ funnelId: text(64), split: z.enum(AttributionDimensions).nullish() });

export function funnelsGraphqlModule({ funnels }: { funnels: FunnelService }): GraphqlModule {
  const resolvers: IResolvers = {
    Query: {
      customFunnel: query(ResultArgs, async (userId, { projectId, funnelId, ...input }) => {
        const result = await funnels.result(userId, projectId, funnelId, input);
        return {
          funnelId: result.funnel.id,
          name: result.funnel.name,
          windowHours: result.funnel.windowHours,
          from: result.from,
          to: result.to,
          steps: result.steps,
          split: result.split,
          splitRows: result.splitRows,
        };
      }),
    },
  };
  return { typeDefs: funnelsTypeDefs, resolvers };
}
