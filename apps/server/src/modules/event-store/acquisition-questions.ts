import type { AttributionCountsQuestion } from './questions/attribution-counts/question.ts';
import type { FilterOptionsQuestion } from './questions/filter-options/question.ts';
import type { FunnelCountsQuestion } from './questions/funnel-counts/question.ts';

/**
 * What the Acquisition screen asks the event store: each question's signature, result and row schema in
 * questions/<question>/question.ts. Definitions: docs/acquisition-and-incidents.md.
 */
export type AcquisitionQuestions = FunnelCountsQuestion & AttributionCountsQuestion & FilterOptionsQuestion;

export type { AttributionCounts } from './questions/attribution-counts/question.ts';
export type { FunnelCounts } from './questions/funnel-counts/question.ts';
