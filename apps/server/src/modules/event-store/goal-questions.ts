import type { AcquisitionFilters } from '@polyflow/contracts/acquisition';
import type { EventSpanQuestion } from './questions/event-span/question.ts';
import type { GoalAttributionQuestion } from './questions/goal-attribution/question.ts';
import type { GoalConversionsQuestion } from './questions/goal-conversions/question.ts';

/**
 * What a goal matches, as the questions read it (docs/goals.md): a custom event of `eventName` (with
 * `propertyKey` = `propertyValue` when both are set, the value as text), or a `page_view` whose path
 * matches `pathRegex` (the anchored RE2 expression of the goal's pattern, contracts/goals.ts).
 */
export type GoalMatch =
  | { kind: 'event'; eventName: string; propertyKey: string | null; propertyValue: string | null }
  | { kind: 'path'; pathRegex: string };

/** Each acquisition filter's events column (a session passes when one of its events in the range has a selected value). */
export const FILTER_EVENT_COLUMNS: Record<keyof AcquisitionFilters, string> = {
  countries: 'country',
  terms: 'utm_term',
  sources: 'utm_source',
  mediums: 'utm_medium',
  campaigns: 'utm_campaign',
  contents: 'utm_content',
  browsers: 'browser',
  walletProviders: 'wallet_provider',
};

/** The filters that have values, as [events column, parameter name, values]. */
export const activeFilters = (filters: AcquisitionFilters) =>
  (Object.entries(FILTER_EVENT_COLUMNS) as [keyof AcquisitionFilters, string][]).flatMap(([key, column]) => {
    const values = filters[key];
    return values && values.length > 0 ? [[column, `filter_${key}`, [...values]] as const] : [];
  });

/** What the goals' figures ask the event store (Analytics screen's Goals card, the attribution column). */
export type GoalQuestions = EventSpanQuestion & GoalConversionsQuestion & GoalAttributionQuestion;

export type { GoalAttributionCount } from './questions/goal-attribution/question.ts';
export type { GoalConversionCounts } from './questions/goal-conversions/question.ts';
