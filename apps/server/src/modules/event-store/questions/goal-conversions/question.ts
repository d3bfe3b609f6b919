import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { GoalMatch } from '../../goal-questions.ts';
import { count } from '../../rows.ts';

/** The goals' conversions over a range (docs/goals.md#conversions). */
export type GoalConversionCounts = {
  /** Distinct users (the app's user id once identified, else the SDK user) with any event in the range. */
  users: number;
  /** Per goal, in the order asked: distinct users with an event matching it in the range. */
  conversions: number[];
};

/** All of a project's goals in one query: one pass over the range's events. */
export type GoalConversionsQuestion = {
  goalConversions(
    projectId: string,
    range: TimeRange,
    goals: readonly GoalMatch[],
  ): Promise<GoalConversionCounts>;
};

export const GoalConversionsRow = z.object({ users: count, conversions: z.array(count).nullable() });
