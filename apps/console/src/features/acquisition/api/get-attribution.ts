import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { AttributionDimension, AttributionQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import type { AcquisitionQueryInput } from './get-acquisition-funnel';

const ATTRIBUTION = graphql(`
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
`);

export type Attribution = AttributionQuery['attribution'];
export type AttributionRow = Attribution['rows'][number];

export type AttributionQueryInput = AcquisitionQueryInput & { dimension: AttributionDimension };

export async function getAttribution(
  { projectId, dimension, from, to, filters, previous = false }: AttributionQueryInput,
  signal?: AbortSignal,
): Promise<Attribution> {
  const { attribution } = await graphqlRequest(ATTRIBUTION, {
    variables: { projectId, dimension, from, to, filters, previous },
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
