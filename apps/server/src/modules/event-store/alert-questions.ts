import type { AlertIncidentOccurrencesQuestion } from './questions/alert-incident-occurrences/question.ts';
import type { AlertLastEventsQuestion } from './questions/alert-last-events/question.ts';
import type { AlertTxOutcomesQuestion } from './questions/alert-tx-outcomes/question.ts';

/**
 * What alert rules ask the event store (modules/alert-rules, docs/alerts.md#evaluation): each question
 * answers for many projects in one query, one window per project and rule (or one long window cut into
 * buckets for a rule's preview). Definitions are the dashboards' own: docs/analytics.md,
 * docs/acquisition-and-incidents.md.
 */
export type AlertQuestions = AlertTxOutcomesQuestion &
  AlertIncidentOccurrencesQuestion &
  AlertLastEventsQuestion;

/**
 * One window of one project: client times [fromMs, toMs) cut into buckets of `bucketMs` from `fromMs`
 * (a bucket as long as the window: one figure for the whole window). Answers name a window by its index
 * in the list asked (`window`).
 */
export type AlertWindow = { projectId: string; fromMs: number; toMs: number; bucketMs: number };

export type { AlertIncidentOccurrences } from './questions/alert-incident-occurrences/question.ts';
export type { AlertLastEvent } from './questions/alert-last-events/question.ts';
export type { AlertTxOutcome } from './questions/alert-tx-outcomes/question.ts';

/** Checks the windows before their numbers are written into SQL (both engines inline them). */
export function checkedWindows(windows: readonly AlertWindow[]): readonly AlertWindow[] {
  for (const w of windows) {
    const numbers = [w.fromMs, w.toMs, w.bucketMs];
    if (!numbers.every(Number.isSafeInteger) || w.bucketMs <= 0 || w.toMs < w.fromMs)
      throw new Error(`invalid alert window ${JSON.stringify(w)}`);
  }
  return windows;
}

/** The earliest start and the latest end of the windows (every engine scans at most that span). */
export function boundsOf(windows: readonly AlertWindow[]): { loMs: number; hiMs: number } {
  return {
    loMs: Math.min(...windows.map((w) => w.fromMs)),
    hiMs: Math.max(...windows.map((w) => w.toMs)),
  };
}
