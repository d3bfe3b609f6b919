import { type AnalyticsOverview, AnalyticsOverviewSchema } from '@polyflow/contracts/analytics';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

/** Every tile of the overview card in one request (definitions: docs/analytics.md). */
export const OVERVIEW_QUERY = /* GraphQL */ `
  query AnalyticsOverview($projectId: ID!, $from: DateTime, $to: DateTime) {
    analyticsOverview(projectId: $projectId, from: $from, to: $to) {
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
`;

const ResultSchema = z.object({ analyticsOverview: AnalyticsOverviewSchema });

export async function getOverview(range: AnalyticsRange, signal?: AbortSignal): Promise<AnalyticsOverview> {
  const data = await graphqlRequest(OVERVIEW_QUERY, {
    variables: { ...range },
    schema: ResultSchema,
    signal,
  });
  return data.analyticsOverview;
}

export function overviewQueryOptions(range: AnalyticsRange) {
  return queryOptions({
    queryKey: analyticsKeys.of('overview', range),
    queryFn: ({ signal }) => getOverview(range, signal),
  });
}

export function useOverview(range: AnalyticsRange) {
  return useQuery(overviewQueryOptions(range));
}
