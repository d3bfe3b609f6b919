import { useQuery } from '@tanstack/react-query';
import type { CountriesQuery } from '../../../gql/graphql';
import type { AnalyticsRange } from './analytics-keys';
import { browsersQueryOptions } from './get-browsers';
import { countriesQueryOptions } from './get-countries';
import { walletProvidersQueryOptions } from './get-wallet-providers';

/**
 * The three "share" queries of the Metrics tab (each `[{key, value}]`, key null = unknown), one operation
 * file each; a share card names the one it shows.
 */
export type ShareQuery = 'walletProviders' | 'countries' | 'browsers';
export type Share = CountriesQuery['countries'][number];

const SHARE_QUERY_OPTIONS = {
  walletProviders: walletProvidersQueryOptions,
  countries: countriesQueryOptions,
  browsers: browsersQueryOptions,
} satisfies Record<ShareQuery, unknown>;

export function useShares(name: ShareQuery, range: AnalyticsRange) {
  return useQuery(SHARE_QUERY_OPTIONS[name](range));
}
