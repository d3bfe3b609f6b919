import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { AcquisitionFilters, AcquisitionFunnelQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';

const ACQUISITION_FUNNEL = graphql(`
  query AcquisitionFunnel(
    $projectId: ID!
    $from: DateTime
    $to: DateTime
    $filters: AcquisitionFilters
    $previous: Boolean
  ) {
    acquisitionFunnel(projectId: $projectId, from: $from, to: $to, filters: $filters, previous: $previous) {
      from
      to
      steps { key label users share }
    }
  }
`);

export type AcquisitionFunnel = AcquisitionFunnelQuery['acquisitionFunnel'];
export type FunnelStep = AcquisitionFunnel['steps'][number];

export interface AcquisitionQueryInput {
  projectId: string;
  /** ISO instants, [from, to). */
  from: string;
  to: string;
  filters: AcquisitionFilters;
  /** The same question over the previous period of the range (docs/analytics.md, "The previous period"). */
  previous?: boolean;
}

export async function getAcquisitionFunnel(
  { projectId, from, to, filters, previous = false }: AcquisitionQueryInput,
  signal?: AbortSignal,
): Promise<AcquisitionFunnel> {
  const { acquisitionFunnel } = await graphqlRequest(ACQUISITION_FUNNEL, {
    variables: { projectId, from, to, filters, previous },
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
