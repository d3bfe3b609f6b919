import type { IResolvers } from 'mercurius';
import { z } from 'zod';
import type { GraphqlModule } from '../../graphql/module.ts';
import { userQuery as query, RangeArgs, text, userMutation } from '../../reading/resolver.ts';
import { incidentTypeDefs } from './schema.ts';
import type { IncidentService } from './service.ts';

const ListArgs = RangeArgs.extend({
  search: text(200).nullish(),
  severities: z.array(text(16)).max(4).nullish(),
  statuses: z.array(text(16)).max(3).nullish(),
  release: z.string().max(200).nullish(),
  first: z.number().int().min(1).max(100).nullish(),
  after: text(200).nullish(),
});
const DetailArgs = RangeArgs.extend({ id: text(64) });
const StatusArgs = z.object({
  projectId: text(64),
  id: text(64),
  status: text(16),
  inNextRelease: z.boolean().nullish(),
});

export function incidentGraphqlModule({ incidents }: { incidents: IncidentService }): GraphqlModule {
  const resolvers: IResolvers = {
    Query: {
      incidents: query(ListArgs, (userId, args) => incidents.list(userId, args)),
      incident: query(DetailArgs, (userId, args) => incidents.detail(userId, args)),
    },
    Mutation: {
      setIncidentStatus: userMutation(StatusArgs, (actor, args) => incidents.setStatus(actor, args)),
    },
  };
  return { typeDefs: incidentTypeDefs, resolvers };
}
