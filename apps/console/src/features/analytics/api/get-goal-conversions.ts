import { useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { GoalConversionsQuery } from '../../../gql/graphql';
import { goalsQueryKey } from '../../../lib/goals';
import { graphqlRequest } from '../../../lib/graphql-client';
import type { AnalyticsRange } from './analytics-keys';

export const GOAL_CONVERSIONS_QUERY = graphql(`
  query GoalConversions($projectId: ID!, $from: DateTime, $to: DateTime, $previous: Boolean) {
    goalConversions(projectId: $projectId, from: $from, to: $to, previous: $previous) {
      users
      goals {
        goal { id name kind eventName propertyKey propertyValue pathPattern }
        conversions
        rate
      }
    }
  }
`);

export type GoalConversions = GoalConversionsQuery['goalConversions'];

export async function getGoalConversions(
  range: AnalyticsRange,
  previous: boolean,
  signal?: AbortSignal,
): Promise<GoalConversions> {
  const data = await graphqlRequest(GOAL_CONVERSIONS_QUERY, { variables: { ...range, previous }, signal });
  return data.goalConversions;
}

/**
 * Every goal's conversions over the period, or the period before it (`previous`). Keyed under the goals'
 * key, so adding or deleting a goal asks again (docs/goals.md#conversions).
 */
export function useGoalConversions(range: AnalyticsRange, previous = false) {
  const { projectId, from, to } = range;
  return useQuery({
    queryKey: [...goalsQueryKey(projectId), 'conversions', { from, to, previous }],
    queryFn: ({ signal }) => getGoalConversions(range, previous, signal),
  });
}
