import { type RetentionCohorts, RetentionCohortsSchema } from '@polyflow/contracts/wallets';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type WalletRange, walletKeys } from './wallet-keys';

export interface CohortOptions {
  returnBy: 'connected' | 'transacted';
  splitDimension: 'source' | 'medium' | 'campaign' | null;
  splitValue: string | null;
}

export const RETENTION_COHORTS_QUERY = /* GraphQL */ `
  query RetentionCohorts($projectId: ID!, $from: DateTime, $to: DateTime, $returnBy: String,
    $splitDimension: String, $splitValue: String) {
    retentionCohorts(projectId: $projectId, from: $from, to: $to, returnBy: $returnBy,
      splitDimension: $splitDimension, splitValue: $splitValue) {
      granularity periods cohorts { start end size returned shares }
    }
  }
`;

export async function getRetentionCohorts(
  range: WalletRange,
  options: CohortOptions,
  signal?: AbortSignal,
): Promise<RetentionCohorts> {
  const { retentionCohorts } = await graphqlRequest(RETENTION_COHORTS_QUERY, {
    variables: { ...range, ...options },
    schema: z.object({ retentionCohorts: RetentionCohortsSchema }),
    signal,
  });
  return retentionCohorts;
}

export function useRetentionCohorts(range: WalletRange, options: CohortOptions) {
  return useQuery({
    queryKey: walletKeys.of('cohorts', range.projectId, { ...range, ...options }),
    queryFn: ({ signal }) => getRetentionCohorts(range, options, signal),
  });
}
