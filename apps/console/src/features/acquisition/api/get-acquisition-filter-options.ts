import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { AcquisitionFilterOptionsQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';

const ACQUISITION_FILTER_OPTIONS = graphql(`
  query AcquisitionFilterOptions($projectId: ID!, $from: DateTime, $to: DateTime) {
    acquisitionFilterOptions(projectId: $projectId, from: $from, to: $to) {
      countries { value users }
      terms { value users }
      sources { value users }
      mediums { value users }
      campaigns { value users }
      contents { value users }
      browsers { value users }
      walletProviders { value users }
    }
  }
`);

export type AcquisitionFilterOptions = AcquisitionFilterOptionsQuery['acquisitionFilterOptions'];
export type FilterOption = AcquisitionFilterOptions['countries'][number];

export interface FilterOptionsInput {
  projectId: string;
  from: string;
  to: string;
}

export async function getAcquisitionFilterOptions(
  { projectId, from, to }: FilterOptionsInput,
  signal?: AbortSignal,
): Promise<AcquisitionFilterOptions> {
  const { acquisitionFilterOptions } = await graphqlRequest(ACQUISITION_FILTER_OPTIONS, {
    variables: { projectId, from, to },
    signal,
  });
  return acquisitionFilterOptions;
}

export function acquisitionFilterOptionsQueryOptions(input: FilterOptionsInput) {
  return queryOptions({
    queryKey: ['projects', input.projectId, 'acquisition', 'filter-options', input] as const,
    queryFn: ({ signal }) => getAcquisitionFilterOptions(input, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** The values the multi-selects offer for the period (most users first). */
export function useAcquisitionFilterOptions(input: FilterOptionsInput) {
  return useQuery(acquisitionFilterOptionsQueryOptions(input));
}
