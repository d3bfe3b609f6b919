import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { AnalyticsOverviewQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

/** Every tile of the overview card in one request (definitions: docs/analytics.md). */
export const OVERVIEW_QUERY = graphql(`
  query AnalyticsOverview($projectId: ID!, $from: DateTime, $to: DateTime, $previous: Boolean, $filters: AnalyticsFilters) {
    analyticsOverview(projectId: $projectId, from: $from, to: $to, previous: $previous, filters: $filters) {
      from
      to
      totalTransactions
      connectedWallets
      newWallets
      submittedTransactions
      failedTransactions
      attemptedTransactions
      transactionFailRate
      dailyActiveWallets
      averageTransactionsPerUserPerDay
      dailyActiveWalletsTrend { current previous change previousFrom previousTo }
    }
  }
`);

export type AnalyticsOverview = AnalyticsOverviewQuery['analyticsOverview'];

/** With `previous`, the same tiles for the previous period of the range (docs/analytics.md). */
export async function getOverview(
  range: AnalyticsRange,
  previous: boolean,
  signal?: AbortSignal,
): Promise<AnalyticsOverview> {
  const data = await graphqlRequest(OVERVIEW_QUERY, { variables: { ...range, previous }, signal });
  return data.analyticsOverview;
}

export function overviewQueryOptions(range: AnalyticsRange, previous = false) {
  return queryOptions({
    queryKey: analyticsKeys.of('overview', range, previous ? { previous } : {}),
    queryFn: ({ signal }) => getOverview(range, previous, signal),
  });
}

export function useOverview(range: AnalyticsRange, { previous = false }: { previous?: boolean } = {}) {
  return useQuery(overviewQueryOptions(range, previous));
}
