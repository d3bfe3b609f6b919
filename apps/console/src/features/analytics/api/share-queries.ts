import { useQuery } from '@tanstack/react-query';
import type { CountriesQuery } from '../../../gql/graphql';
import type { AnalyticsRange } from './analytics-keys';
import { browsersQueryOptions } from './get-browsers';
import { countriesQueryOptions } from './get-countries';
import { devicesQueryOptions } from './get-devices';
import { operatingSystemsQueryOptions } from './get-operating-systems';
import { sourcesQueryOptions } from './get-sources';
import { walletProvidersQueryOptions } from './get-wallet-providers';

/**
 * The "share" queries of the Metrics tab (each `[{key, value}]`, key null = unknown), one operation
 * file each; a share card names the one it shows.
 */
export type ShareQuery =
  | 'walletProviders'
  | 'countries'
  | 'browsers'
  | 'operatingSystems'
  | 'devices'
  | 'sources';
export type Share = CountriesQuery['countries'][number];

const SHARE_QUERY_OPTIONS = {
  walletProviders: walletProvidersQueryOptions,
  countries: countriesQueryOptions,
  browsers: browsersQueryOptions,
  operatingSystems: operatingSystemsQueryOptions,
  devices: devicesQueryOptions,
  sources: sourcesQueryOptions,
} satisfies Record<ShareQuery, unknown>;

export function useShares(name: ShareQuery, range: AnalyticsRange) {
  return useQuery(SHARE_QUERY_OPTIONS[name](range));
}
