import type { CustomFunnelQuestion } from './questions/custom-funnel/question.ts';
import type { EventSpanQuestion } from './questions/event-span/question.ts';

/** What custom funnels ask the event store (docs/funnels.md). */
export type FunnelQuestions = EventSpanQuestion & CustomFunnelQuestion;

export type {
  CustomFunnelDefinition,
  CustomFunnelRow,
} from './questions/custom-funnel/question.ts';
