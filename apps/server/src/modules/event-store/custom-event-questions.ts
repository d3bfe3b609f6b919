import type { CustomEventBreakdownQuestion } from './questions/custom-event-breakdown/question.ts';
import type { CustomEventCountsQuestion } from './questions/custom-event-counts/question.ts';
import type { CustomEventSeriesQuestion } from './questions/custom-event-series/question.ts';
import type { CustomEventVocabularyQuestion } from './questions/custom-event-vocabulary/question.ts';
import type { EventSpanQuestion } from './questions/event-span/question.ts';

/** What the Events screen asks the event store (docs/custom-events.md). */
export type CustomEventQuestions = EventSpanQuestion &
  CustomEventCountsQuestion &
  CustomEventBreakdownQuestion &
  CustomEventSeriesQuestion &
  CustomEventVocabularyQuestion;

export type { CustomEventBreakdownRow } from './questions/custom-event-breakdown/question.ts';
export type { CustomEventCount } from './questions/custom-event-counts/question.ts';
export type { CustomEventDay } from './questions/custom-event-series/question.ts';
export type { CustomEventVocabulary } from './questions/custom-event-vocabulary/question.ts';
