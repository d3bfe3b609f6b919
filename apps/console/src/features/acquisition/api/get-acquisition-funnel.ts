import {
  type AcquisitionFilters,
  type AcquisitionFunnel,
  AcquisitionFunnelSchema,
} from '@polyflow/contracts/acquisition';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/graphql-client';

const ACQUISITION_FUNNEL = /* GraphQL */ `
  query AcquisitionFunnel($projectId: ID!, $from: DateTime, $to: DateTime, $filters: AcquisitionFilters) {
    acquisitionFunnel(projectId: $projectId, from: $from, to: $to, filters: $filters) {
      from
      to
      steps { key label users share }
    }
  }
`;

export interface AcquisitionQueryInput {
  projectId: string;
  /** ISO instants, [from, to). */
  from: string;
  to: string;
  filters: AcquisitionFilters;
}

export async function getAcquisitionFunnel(
  { projectId, from, to, filters }: AcquisitionQueryInput,
  signal?: AbortSignal,
): Promise<AcquisitionFunnel> {
  const { acquisitionFunnel } = await graphqlRequest(ACQUISITION_FUNNEL, {
    variables: { projectId, from, to, filters },
    schema: z.object({ acquisitionFunnel: AcquisitionFunnelSchema }),
    signal,
  });
  return acquisitionFunnel;
}

export function acquisitionFunnelQueryOptions(input: AcquisitionQueryInput) {
  return queryOptions({
    queryKey: ['projects', input.projectId, 'acquisition', 'funnel', input] as const,
    queryFn: ({ signal }) => getAcquisitionFunnel(input, signal),
    // Keep the tiles on screen while a filter change loads, rather than flashing a spinner.
    placeholderData: keepPreviousData,
  });
}

export function useAcquisitionFunnel(input: AcquisitionQueryInput) {
  return useQuery(acquisitionFunnelQueryOptions(input));
}
