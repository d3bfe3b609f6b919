import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { AttributionDimension, CustomFunnelQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';

export const CUSTOM_FUNNEL_QUERY = graphql(`
  query CustomFunnel($projectId: ID!, $funnelId: ID!, $from: DateTime, $to: DateTime, $split: AttributionDimension) {
    customFunnel(projectId: $projectId, funnelId: $funnelId, from: $from, to: $to, split: $split) {
      funnelId
      name
      windowHours
      from
      to
      split
      steps { index label users conversion stepConversion dropOff }
      splitRows { value users conversion }
    }
  }
`);

export type CustomFunnelResult = CustomFunnelQuery['customFunnel'];
export interface FunnelRange {
  projectId: string;
  funnelId: string;
  from: string;
  to: string;
  split: AttributionDimension | null;
}

export async function getCustomFunnel(range: FunnelRange, signal?: AbortSignal): Promise<CustomFunnelResult> {
  const { customFunnel } = await graphqlRequest(CUSTOM_FUNNEL_QUERY, { variables: range, signal });
  return customFunnel;
}

/** A saved funnel's answer over the period (docs/funnels.md), optionally split by a landing dimension. */
export function useCustomFunnel(range: FunnelRange) {
  return useQuery({
    queryKey: ['projects', range.projectId, 'funnels', 'result', range] as const,
    queryFn: ({ signal }) => getCustomFunnel(range, signal),
    placeholderData: keepPreviousData,
  });
}
