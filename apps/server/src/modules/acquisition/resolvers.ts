import type { IResolvers } from 'mercurius';
import { z } from 'zod';
import type { GraphqlContext, GraphqlModule } from '../../graphql/module.ts';
import { AnalyticsInputError } from '../analytics/errors.ts';
import { withGraphqlErrors } from '../analytics/graphql-errors.ts';
import { acquisitionTypeDefs } from './schema.ts';
import type { AcquisitionService } from './service.ts';

const text = (max: number) => z.string().max(max);
const RangeArgs = z.object({ projectId: text(64), from: text(64).nullish(), to: text(64).nullish() });
// The filters themselves are checked by the service against the contract (AcquisitionFiltersSchema).
const FunnelArgs = RangeArgs.extend({ filters: z.unknown().optional() });
const AttributionArgs = FunnelArgs.extend({ dimension: text(32) });

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
