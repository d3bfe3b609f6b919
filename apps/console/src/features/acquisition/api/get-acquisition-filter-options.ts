import {
  type AcquisitionFilterOptions,
  AcquisitionFilterOptionsSchema,
} from '@polyflow/contracts/acquisition';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/graphql-client';

const FILTER_OPTION = 'value users';
const ACQUISITION_FILTER_OPTIONS = /* GraphQL */ `
  query AcquisitionFilterOptions($projectId: ID!, $from: DateTime, $to: DateTime) {
    acquisitionFilterOptions(projectId: $projectId, from: $from, to: $to) {
      countries { ${FILTER_OPTION} }
      terms { ${FILTER_OPTION} }
      sources { ${FILTER_OPTION} }
      mediums { ${FILTER_OPTION} }
      campaigns { ${FILTER_OPTION} }
      contents { ${FILTER_OPTION} }
      browsers { ${FILTER_OPTION} }
      walletProviders { ${FILTER_OPTION} }
    }
  }
`;

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
    schema: z.object({ acquisitionFilterOptions: AcquisitionFilterOptionsSchema }),
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
