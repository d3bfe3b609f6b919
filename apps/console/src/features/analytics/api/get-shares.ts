import { type Share, ShareSchema } from '@polyflow/contracts/analytics';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

/**
 * The three "share" queries of the Metrics tab (each `[{key, value}]`, key null = unknown). One request
 * function per query, in one file because they differ only in the field asked.
 *  - walletProviders: distinct connected wallets per wallet provider
 *  - countries: distinct users per country (ISO 3166-1 alpha-2)
 *  - browsers: distinct users per browser
 */
export type ShareQuery = 'walletProviders' | 'countries' | 'browsers';

/**
 * Every slice the server has (its maximum; countries and browsers are far fewer): the chart shows the
 * first ones and an "Other" slice, and shares are of the whole (lib/top-n.ts). The server sorts by value.
 */
export const SHARE_LIMIT = 250;

const DOCUMENTS: Record<ShareQuery, string> = {
  walletProviders: /* GraphQL */ `
    query WalletProviders($projectId: ID!, $from: DateTime, $to: DateTime) {
      walletProviders(projectId: $projectId, from: $from, to: $to) { key value }
    }
  `,
  countries: /* GraphQL */ `
    query Countries($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int) {
      countries(projectId: $projectId, from: $from, to: $to, limit: $limit) { key value }
    }
  `,
  browsers: /* GraphQL */ `
    query Browsers($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int) {
      browsers(projectId: $projectId, from: $from, to: $to, limit: $limit) { key value }
    }
  `,
};

export async function getShares(
  name: ShareQuery,
  range: AnalyticsRange,
  signal?: AbortSignal,
): Promise<Share[]> {
  const schema = z.object({ [name]: z.array(ShareSchema) });
  const variables = name === 'walletProviders' ? { ...range } : { ...range, limit: SHARE_LIMIT };
  const data = await graphqlRequest(DOCUMENTS[name], { variables, schema, signal });
  return data[name] ?? [];
}

export function useShares(name: ShareQuery, range: AnalyticsRange) {
  return useQuery(
    queryOptions({
      queryKey: analyticsKeys.of(name, range),
      queryFn: ({ signal }) => getShares(name, range, signal),
    }),
  );
}
