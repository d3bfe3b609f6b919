import type { LifecycleStageName, WalletListSort } from '@polyflow/contracts/wallets';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { WalletsQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { toStage, type WalletRange, walletKeys } from './wallet-keys';

export const WALLETS_PAGE_SIZE = 50;

export interface WalletFilters {
  search: string | null;
  stage: string | null;
  source: string | null;
  campaign: string | null;
  chainId: number | null;
  country: string | null;
  sort: WalletListSort;
  descending: boolean;
}

export const WALLETS_QUERY = graphql(`
  query Wallets($projectId: ID!, $from: DateTime, $to: DateTime, $search: String, $stage: String,
    $source: String, $campaign: String, $chainId: ChainId, $country: String, $sort: String,
    $descending: Boolean, $first: Int, $after: String, $filters: AnalyticsFilters) {
    wallets(projectId: $projectId, from: $from, to: $to, search: $search, stage: $stage, source: $source,
      campaign: $campaign, chainId: $chainId, country: $country, sort: $sort, descending: $descending,
      first: $first, after: $after, filters: $filters) {
      asOf powerThreshold nextCursor
      rows { address firstSeen lastSeen transactions failed gasPaidWei stage source campaign }
    }
  }
`);

type WalletsAnswer = WalletsQuery['wallets'];
export type WalletRow = Omit<WalletsAnswer['rows'][number], 'stage'> & { stage: LifecycleStageName };
export type WalletList = Omit<WalletsAnswer, 'rows'> & { rows: WalletRow[] };

/** The range (with the Analytics filters, when the list is filtered: docs/wallets.md) and the list's own filters. */
export async function getWallets(
  range: WalletRange,
  filters: WalletFilters,
  after: string | null,
  signal?: AbortSignal,
): Promise<WalletList> {
  const { wallets } = await graphqlRequest(WALLETS_QUERY, {
    variables: { ...range, ...filters, first: WALLETS_PAGE_SIZE, after },
    signal,
  });
  return { ...wallets, rows: wallets.rows.map((row) => ({ ...row, stage: toStage(row.stage) })) };
}

export function useWallets(range: WalletRange, filters: WalletFilters) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: walletKeys.of('list', range.projectId, { ...range, ...filters }),
      queryFn: ({ pageParam, signal }) => getWallets(range, filters, pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (page) => page.nextCursor,
      // Another sort, filter or period keeps the list (and the focused header or Sort by menu) in place
      // until the new one arrives, rather than a loader that takes focus away (WCAG 2.4.3).
      placeholderData: keepPreviousData,
    }),
  );
}
