import { ASSIGNEE_ME } from '@polyflow/contracts/incidents';
import type { IResolvers } from 'mercurius';
import { z } from 'zod';
import type { GraphqlModule } from '../../graphql/module.ts';
import { InputError } from '../../reading/input-error.ts';
import { userQuery as query, RangeArgs, readerQuery, text, userMutation } from '../../reading/resolver.ts';
import { incidentTypeDefs } from './schema.ts';
import type { IncidentService } from './service.ts';

const ListArgs = RangeArgs.extend({
  search: text(200).nullish(),
  severities: z.array(text(16)).max(4).nullish(),
  statuses: z.array(text(16)).max(3).nullish(),
  first: z.number().int().min(1).max(100).nullish(),
  after: text(200).nullish(),
  assignee: text(64).nullish(),
});
const DetailArgs = RangeArgs.extend({ id: text(64) });
const StatusArgs = z.object({ projectId: text(64), id: text(64), status: text(16) });
const AssignArgs = z.object({ projectId: text(64), id: text(64), userId: text(64).nullish() });

export function incidentGraphqlModule({ incidents }: { incidents: IncidentService }): GraphqlModule {
  const resolvers: IResolvers = {
    Query: {
      incidents: readerQuery(ListArgs, (reader, args) => {
        if (args.assignee?.trim() !== ASSIGNEE_ME) return incidents.list(reader.userId, args);
        // "Me" is the session's user; a read token is no one.
        if (reader.isToken)
          throw new InputError('Invalid assignee: "me" needs a console session, not a read token.');
        return incidents.list(reader.userId, { ...args, assignee: reader.userId });
      }),
      incident: query(DetailArgs, (userId, args) => incidents.detail(userId, args)),
    },
    Mutation: {
      setIncidentStatus: userMutation(StatusArgs, (actor, args) => incidents.setStatus(actor, args)),
      assignIncident: userMutation(AssignArgs, (actor, args) =>
        incidents.assign(actor, { projectId: args.projectId, id: args.id, userId: args.userId ?? null }),
      ),
    },
  };
  return { typeDefs: incidentTypeDefs, resolvers };
}
