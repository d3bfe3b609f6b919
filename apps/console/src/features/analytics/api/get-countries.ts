import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { CountriesQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys, SHARE_LIMIT } from './analytics-keys';

/**
 * The Metrics tab's countries share: distinct users per country (ISO 3166-1 alpha-2); key null =
 * unknown. The server sorts by value.
 */
export const COUNTRIES_QUERY = graphql(`
  query Countries($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int, $filters: AnalyticsFilters) {
    countries(projectId: $projectId, from: $from, to: $to, limit: $limit, filters: $filters) { key value }
  }
`);

export async function getCountries(
  range: AnalyticsRange,
  signal?: AbortSignal,
): Promise<CountriesQuery['countries']> {
  const data = await graphqlRequest(COUNTRIES_QUERY, { variables: { ...range, limit: SHARE_LIMIT }, signal });
  return data.countries;
}

export function countriesQueryOptions(range: AnalyticsRange) {
  return queryOptions({
    queryKey: analyticsKeys.of('countries', range),
    queryFn: ({ signal }) => getCountries(range, signal),
  });
}

export function useCountries(range: AnalyticsRange) {
  return useQuery(countriesQueryOptions(range));
}
