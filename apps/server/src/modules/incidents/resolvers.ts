import type { IResolvers } from 'mercurius';
import { z } from 'zod';
import type { GraphqlContext, GraphqlModule } from '../../graphql/module.ts';
import { AnalyticsInputError } from '../analytics/errors.ts';
import { withGraphqlErrors } from '../analytics/graphql-errors.ts';
import { incidentTypeDefs } from './schema.ts';
import type { IncidentService } from './service.ts';

const text = (max: number) => z.string().max(max);
const RangeArgs = z.object({ projectId: text(64), from: text(64).nullish(), to: text(64).nullish() });
const ListArgs = RangeArgs.extend({
  search: text(200).nullish(),
  severities: z.array(text(16)).max(4).nullish(),
  first: z.number().int().min(1).max(100).nullish(),
  after: text(200).nullish(),
});
const DetailArgs = RangeArgs.extend({ id: text(64) });

function parse<T>(schema: z.ZodType<T>, args: unknown): T {
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new AnalyticsInputError(`Invalid arguments: ${where}${issue?.message ?? 'invalid'}.`);
}

type Resolver = (root: unknown, args: unknown, context: GraphqlContext) => Promise<unknown>;

/** Signed-in user first (401 otherwise), then the arguments, then the service; errors get GraphQL codes. */
function query<T>(schema: z.ZodType<T>, run: (userId: string, args: T) => Promise<unknown>): Resolver {
  return withGraphqlErrors(async (_root: unknown, args: unknown, context: GraphqlContext) => {
    const user = await context.requireUser();
    return run(user.id, parse(schema, args));
  });
}

export function incidentGraphqlModule({ incidents }: { incidents: IncidentService }): GraphqlModule {
  const resolvers: IResolvers = {
    Query: {
      incidents: query(ListArgs, (userId, args) => incidents.list(userId, args)),
      incident: query(DetailArgs, (userId, args) => incidents.detail(userId, args)),
    },
  };
  return { typeDefs: incidentTypeDefs, resolvers };
}
