import { useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { RetentionCohortsQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type WalletRange, walletKeys } from './wallet-keys';

export interface CohortOptions {
  returnBy: 'connected' | 'transacted';
  splitDimension: 'source' | 'medium' | 'campaign' | null;
  splitValue: string | null;
}

export const RETENTION_COHORTS_QUERY = graphql(`
  query RetentionCohorts($projectId: ID!, $from: DateTime, $to: DateTime, $returnBy: String,
    $splitDimension: String, $splitValue: String, $filters: AnalyticsFilters) {
    retentionCohorts(projectId: $projectId, from: $from, to: $to, returnBy: $returnBy,
      splitDimension: $splitDimension, splitValue: $splitValue, filters: $filters) {
      granularity periods cohorts { start end size returned shares }
    }
  }
`);

export type RetentionCohorts = RetentionCohortsQuery['retentionCohorts'];

export async function getRetentionCohorts(
  range: WalletRange,
  options: CohortOptions,
  signal?: AbortSignal,
): Promise<RetentionCohorts> {
  const { retentionCohorts } = await graphqlRequest(RETENTION_COHORTS_QUERY, {
    variables: { ...range, ...options },
    signal,
  });
  return retentionCohorts;
}

export function useRetentionCohorts(range: WalletRange, options: CohortOptions) {
  return useQuery({
    queryKey: walletKeys.of('cohorts', range.projectId, { range, options }),
    queryFn: ({ signal }) => getRetentionCohorts(range, options, signal),
    // Another return kind or split of the same range keeps the cohorts on screen while the new ones load,
    // and with them the card's controls and the focus on the one used; another range starts afresh.
    placeholderData: (previous, previousQuery) => {
      const key = previousQuery?.queryKey[4] as { range?: WalletRange } | undefined;
      return JSON.stringify(key?.range) === JSON.stringify(range) ? previous : undefined;
    },
  });
}
