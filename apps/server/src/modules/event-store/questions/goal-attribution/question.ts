import type { AcquisitionFilters, AttributionDimension } from '@polyflow/contracts/acquisition';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { GoalMatch } from '../../goal-questions.ts';
import { count, flag, textOrNull } from '../../rows.ts';

/** One attribution row's conversions of a goal (docs/goals.md#in-the-attribution-table). */
export type GoalAttributionCount = {
  isTotal: boolean;
  /** The session's landing value of the dimension; null: Unattributed (or the Total row). */
  value: string | null;
  /** Distinct users with an event matching the goal in a session of this row. */
  conversions: number;
};

/**
 * A goal's converting users by the landing value of the sessions they converted in, plus the Total row;
 * sessions that do not pass `filters` are left out, as in the attribution table.
 */
export type GoalAttributionQuestion = {
  goalAttribution(
    projectId: string,
    range: TimeRange,
    dimension: AttributionDimension,
    goal: GoalMatch,
    filters: AcquisitionFilters,
  ): Promise<GoalAttributionCount[]>;
};

export const GoalAttributionRow = z.object({ is_total: flag, value: textOrNull, conversions: count });
