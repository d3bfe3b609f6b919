import type { IResolvers } from 'mercurius';
import { z } from 'zod';
import type { GraphqlModule } from '../../graphql/module.ts';
import { ComparableRangeArgs, userQuery as query, RangeArgs, text } from '../../reading/resolver.ts';
import { analyticsTypeDefs } from './schema.ts';
import type { AnalyticsService, CountSeries } from './service.ts';

// The filters are checked by the service against the contract (AnalyticsFiltersSchema).
const Filters = { filters: z.unknown().optional() };
const OverviewArgs = ComparableRangeArgs.extend(Filters);
const SeriesArgs = ComparableRangeArgs.extend({ granularity: text(64).nullish(), ...Filters });
const GasArgs = SeriesArgs.extend({ chainId: z.number().int().positive().nullish() });
const limitOf = (max: number) => z.number().int().min(1).max(max);
const FunctionArgs = RangeArgs.extend({ limit: limitOf(100), ...Filters });
const ShareArgs = RangeArgs.extend({ limit: limitOf(250), ...Filters });
const TableArgs = RangeArgs.extend({ limit: limitOf(100), ...Filters });
const ProvidersArgs = RangeArgs.extend(Filters);
const ProjectArgs = z.object({ projectId: text(64) });
const HistoryArgs = RangeArgs.extend({
  first: limitOf(100),
  after: text(200).nullish(),
  search: text(100).nullish(),
  status: text(16).nullish(),
  type: text(16).nullish(),
  contract: text(64).nullish(),
  selector: text(16).nullish(),
  ...Filters,
});
const TransactionArgs = z
  .object({ projectId: text(64), hash: text(66).nullish(), id: text(64).nullish() })
  .refine((args) => Boolean(args.hash) !== Boolean(args.id), 'Pass exactly one of hash and id.');

export function analyticsGraphqlModule({ analytics }: { analytics: AnalyticsService }): GraphqlModule {
  const series = (kind: CountSeries) =>
    query(SeriesArgs, (userId, { projectId, ...input }) =>
      analytics.countSeries(kind, userId, projectId, input),
    );
  const resolvers: IResolvers = {
    Query: {
      totalConnectedWallets: series('connectedWallets'),
      totalTransactions: series('transactions'),
      totalNewWallets: series('newWallets'),
      failedTransactions: series('failedTransactions'),
      averageGasPrice: query(GasArgs, (userId, { projectId, ...input }) =>
        analytics.averageGasPrice(userId, projectId, input),
      ),
      analyticsOverview: query(OverviewArgs, (userId, { projectId, ...input }) =>
        analytics.overview(userId, projectId, input),
      ),
      contractFunctions: query(FunctionArgs, (userId, { projectId, ...input }) =>
        analytics.contractFunctions(userId, projectId, input),
      ),
      walletProviders: query(ProvidersArgs, (userId, { projectId, ...input }) =>
        analytics.walletProviders(userId, projectId, input),
      ),
      countries: query(ShareArgs, (userId, { projectId, ...input }) =>
        analytics.countries(userId, projectId, input),
      ),
      browsers: query(ShareArgs, (userId, { projectId, ...input }) =>
        analytics.browsers(userId, projectId, input),
      ),
      operatingSystems: query(ShareArgs, (userId, { projectId, ...input }) =>
        analytics.usersBy('os', userId, projectId, input),
      ),
      devices: query(ShareArgs, (userId, { projectId, ...input }) =>
        analytics.usersBy('device', userId, projectId, input),
      ),
      sources: query(ShareArgs, (userId, { projectId, ...input }) =>
        analytics.usersBy('utm_source', userId, projectId, input),
      ),
      topPages: query(TableArgs, (userId, { projectId, ...input }) =>
        analytics.topPages(userId, projectId, input),
      ),
      topReferrers: query(TableArgs, (userId, { projectId, ...input }) =>
        analytics.topReferrers(userId, projectId, input),
      ),
      liveActivity: query(ProjectArgs, (userId, { projectId }) => analytics.liveActivity(userId, projectId)),
      transactionHistory: query(HistoryArgs, (userId, { projectId, ...input }) =>
        analytics.transactionHistory(userId, projectId, input),
      ),
      transaction: query(TransactionArgs, (userId, { projectId, hash, id }) =>
        // Hashes are stored lower case; SDK ids are compared as given.
        analytics.transaction(userId, projectId, hash ? hash.toLowerCase() : (id ?? '')),
      ),
    },
  };
  return { typeDefs: analyticsTypeDefs, resolvers };
}
