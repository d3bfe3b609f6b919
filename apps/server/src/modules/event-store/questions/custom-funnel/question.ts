import type { AttributionDimension } from '@polyflow/contracts/acquisition';
import type { FunnelStep } from '@polyflow/contracts/funnels';
import { pathPatternRegex } from '@polyflow/contracts/path-pattern';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count, flag, textOrNull } from '../../rows.ts';
import { jsonPointerOf } from '../custom-event-breakdown/question.ts';

/** A funnel as the question reads it: checked steps (2–8) and the window in ms. */
export type CustomFunnelDefinition = { steps: readonly FunnelStep[]; windowMs: number };

/**
 * One row of a custom funnel's answer: `reached[k]` users completed steps 1..k+1 in order within the
 * window. The Total row (`isTotal`) counts every user; with a split, one row per landing value of the
 * dimension (`value` null: unattributed), at most MAX_SPLIT_VALUES, most users at step 1 first.
 */
export type CustomFunnelRow = { isTotal: boolean; value: string | null; reached: number[] };

/**
 * Users (identified as docs/custom-events.md says) whose step 1 happened in the range, and how far each
 * got: each later step at a strictly later millisecond than the step before it, all no later than the
 * window after step 1 (later steps may fall after the range's end). A user counts at their best attempt.
 * Definition: docs/funnels.md#the-question.
 */
export type CustomFunnelQuestion = {
  customFunnel(
    projectId: string,
    range: TimeRange,
    funnel: CustomFunnelDefinition,
    split: AttributionDimension | null,
  ): Promise<CustomFunnelRow[]>;
};

export const MAX_SPLIT_VALUES = 50;

/** The landing UTM column each split dimension reads on the user's first step-1 event. */
export const SPLIT_COLUMNS: Record<AttributionDimension, string> = {
  campaign: 'utm_campaign',
  source: 'utm_source',
  medium: 'utm_medium',
  content: 'utm_content',
  term: 'utm_term',
};

/** The row schema for `steps` steps: `is_total`, `value`, `r1` … `rN`. */
export const customFunnelRowSchema = (steps: number) =>
  z
    .object({
      is_total: flag,
      value: textOrNull,
      ...Object.fromEntries(Array.from({ length: steps }, (_, index) => [`r${index + 1}`, count])),
    })
    .transform(
      (row): CustomFunnelRow => ({
        isTotal: row.is_total,
        value: row.value,
        reached: Array.from({ length: steps }, (_, index) =>
          Number((row as Record<string, unknown>)[`r${index + 1}`] ?? 0),
        ),
      }),
    );

/**
 * A step's condition on an event row as named parameters: the same values on both engines, each engine
 * writing its own SQL around them (`param(name)` is `$name` or `{name:String}`).
 */
export type StepCondition = { sql: string; params: Record<string, string> };

export function stepConditions(
  steps: readonly FunnelStep[],
  syntax: {
    param: (name: string) => string;
    pathMatches: (regex: string) => string;
    propertyEquals: (pointer: string, key: string, value: string) => string;
  },
): StepCondition[] {
  return steps.map((step, index) => {
    const p = (what: string) => `s${index + 1}_${what}`;
    switch (step.kind) {
      case 'page':
        return {
          sql: `(type = 'page_view' AND ${syntax.pathMatches(syntax.param(p('path')))})`,
          params: { [p('path')]: pathPatternRegex(step.path) },
        };
      case 'event': {
        const name = `type = 'custom' AND event_name = ${syntax.param(p('name'))}`;
        if (!step.property) return { sql: `(${name})`, params: { [p('name')]: step.name } };
        return {
          sql: `(${name} AND ${syntax.propertyEquals(syntax.param(p('pointer')), syntax.param(p('key')), syntax.param(p('value')))})`,
          params: {
            [p('name')]: step.name,
            [p('pointer')]: jsonPointerOf(step.property.key),
            [p('key')]: step.property.key,
            [p('value')]: step.property.value,
          },
        };
      }
      case 'wallet_connected':
        return { sql: `(type = 'wallet_connected')`, params: {} };
      default:
        // A transaction stage (the step kinds are checked at save: nothing else reaches here).
        return {
          sql: `(type = 'tx' AND tx_stage = ${syntax.param(p('stage'))})`,
          params: { [p('stage')]: step.stage },
        };
    }
  });
}
