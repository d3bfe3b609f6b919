import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { GoalAttributionQuery } from '../../../gql/graphql';
import { goalsQueryKey } from '../../../lib/goals';
import { graphqlRequest } from '../../../lib/graphql-client';
import type { AttributionQueryInput } from './get-attribution';

const GOAL_ATTRIBUTION = graphql(`
  query GoalAttribution(
    $projectId: ID!
    $goalId: ID!
    $dimension: AttributionDimension!
    $from: DateTime
    $to: DateTime
    $filters: AcquisitionFilters
  ) {
    goalAttribution(
      projectId: $projectId
      goalId: $goalId
      dimension: $dimension
      from: $from
      to: $to
      filters: $filters
    ) {
      goal { id name }
      rows { isTotal value conversions }
    }
  }
`);

export type GoalAttribution = GoalAttributionQuery['goalAttribution'];

/**
 * One goal's converting users per attribution row (docs/goals.md#in-the-attribution-table), asked only
 * once a goal is picked. Keyed under the goals' key: deleting the goal drops it.
 */
export function useGoalAttribution(input: Omit<AttributionQueryInput, 'previous'>, goalId: string | null) {
  const { projectId, dimension, from, to, filters } = input;
  return useQuery({
    queryKey: [...goalsQueryKey(projectId), 'attribution', { goalId, dimension, from, to, filters }],
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(GOAL_ATTRIBUTION, {
          variables: { projectId, goalId: goalId ?? '', dimension, from, to, filters },
          signal,
        })
      ).goalAttribution,
    enabled: goalId !== null,
    placeholderData: keepPreviousData,
  });
}

/** The conversions of an attribution row: Total, Unattributed (value null) or a value; 0 when absent. */
export function conversionsOf(
  answer: GoalAttribution | undefined,
  row: { kind: string; value: string | null },
): number | undefined {
  if (!answer) return undefined;
  const match = answer.rows.find((candidate) =>
    row.kind === 'total'
      ? candidate.isTotal
      : !candidate.isTotal && candidate.value === (row.kind === 'unattributed' ? null : row.value),
  );
  return match?.conversions ?? 0;
}
