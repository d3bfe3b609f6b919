import {
  type Attribution,
  type AttributionDimension,
  AttributionSchema,
} from '@polyflow/contracts/acquisition';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/graphql-client';
import type { AcquisitionQueryInput } from './get-acquisition-funnel';

const ATTRIBUTION = /* GraphQL */ `
  query Attribution(
    $projectId: ID!
    $dimension: AttributionDimension!
    $from: DateTime
    $to: DateTime
    $filters: AcquisitionFilters
    $previous: Boolean
  ) {
    attribution(
      projectId: $projectId
      dimension: $dimension
      from: $from
      to: $to
      filters: $filters
      previous: $previous
    ) {
      dimension
      from
      to
      rows {
        kind
        value
        newWallets
        connects
        transactions
        sessions
        users
        sessionsWithTransaction
        usersWithTransaction
        sessionsWithConnect
        usersWithConnect
        transactionSessionRate
        transactionUserRate
        connectSessionRate
        connectUserRate
      }
    }
  }
`;

export type AttributionQueryInput = AcquisitionQueryInput & { dimension: AttributionDimension };

export async function getAttribution(
  { projectId, dimension, from, to, filters, previous = false }: AttributionQueryInput,
  signal?: AbortSignal,
): Promise<Attribution> {
  const { attribution } = await graphqlRequest(ATTRIBUTION, {
    variables: { projectId, dimension, from, to, filters, previous },
    schema: z.object({ attribution: AttributionSchema }),
    signal,
  });
  return attribution;
}

export function attributionQueryOptions(input: AttributionQueryInput) {
  return queryOptions({
    queryKey: ['projects', input.projectId, 'acquisition', 'attribution', input] as const,
    queryFn: ({ signal }) => getAttribution(input, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAttribution(input: AttributionQueryInput) {
  return useQuery(attributionQueryOptions(input));
}
