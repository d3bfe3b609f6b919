import { type PageRow, PageRowSchema } from '@polyflow/contracts/analytics';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

/** The server's maximum: the card shows the first ten and "Other", Show all lists these (lib/top-n.ts). */
export const TOP_PAGES_LIMIT = 100;

export const TOP_PAGES_QUERY = /* GraphQL */ `
  query TopPages($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int) {
    topPages(projectId: $projectId, from: $from, to: $to, limit: $limit) {
      path
      users
      wallets
      transactions
    }
  }
`;

const ResultSchema = z.object({ topPages: z.array(PageRowSchema) });

export async function getTopPages(range: AnalyticsRange, signal?: AbortSignal): Promise<PageRow[]> {
  const variables = { ...range, limit: TOP_PAGES_LIMIT };
  const data = await graphqlRequest(TOP_PAGES_QUERY, { variables, schema: ResultSchema, signal });
  return data.topPages;
}

export function useTopPages(range: AnalyticsRange) {
  return useQuery(
    queryOptions({
      queryKey: analyticsKeys.of('topPages', range),
      queryFn: ({ signal }) => getTopPages(range, signal),
    }),
  );
}
