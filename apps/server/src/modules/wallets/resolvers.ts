import type { IResolvers } from 'mercurius';
import { z } from 'zod';
import type { GraphqlModule } from '../../graphql/module.ts';
import { userQuery as query, RangeArgs, text } from '../../reading/resolver.ts';
import { walletTypeDefs } from './schema.ts';
import type { WalletService } from './service.ts';

const WalletArgs = z.object({ projectId: text(64), address: text(200) });
// The Analytics filters, checked by the service against the contract (AnalyticsFiltersSchema).
const Filters = { filters: z.unknown().optional() };
const SessionsArgs = WalletArgs.extend({ after: text(600) });
const ListArgs = RangeArgs.extend({
  search: text(100).nullish(),
  stage: text(40).nullish(),
  source: text(200).nullish(),
  campaign: text(200).nullish(),
  chainId: z.number().int().positive().nullish(),
  country: text(8).nullish(),
  sort: text(40).nullish(),
  descending: z.boolean().nullish(),
  first: z.number().int().min(1).max(200).nullish(),
  after: text(300).nullish(),
  ...Filters,
});
const FilteredArgs = RangeArgs.extend(Filters);
const CohortArgs = RangeArgs.extend({
  returnBy: text(40).nullish(),
  splitDimension: text(40).nullish(),
  splitValue: text(200).nullish(),
  ...Filters,
});

export function walletGraphqlModule({ wallets }: { wallets: WalletService }): GraphqlModule {
  const resolvers: IResolvers = {
    Query: {
      wallet: query(WalletArgs, (userId, { projectId, address }) =>
        wallets.wallet(userId, projectId, address),
      ),
      walletSessions: query(SessionsArgs, (userId, { projectId, address, after }) =>
        wallets.walletSessions(userId, projectId, address, after),
      ),
      wallets: query(ListArgs, (userId, { projectId, ...input }) => wallets.list(userId, projectId, input)),
      walletLifecycle: query(FilteredArgs, (userId, { projectId, ...input }) =>
        wallets.lifecycle(userId, projectId, input),
      ),
      retentionCohorts: query(CohortArgs, (userId, { projectId, ...input }) =>
        wallets.cohorts(userId, projectId, input),
      ),
      failedTransactionCost: query(FilteredArgs, (userId, { projectId, ...input }) =>
        wallets.failedTransactionCost(userId, projectId, input),
      ),
    },
  };
  return { typeDefs: walletTypeDefs, resolvers };
}
