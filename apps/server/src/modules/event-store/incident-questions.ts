import type { ActiveUsersDuringQuestion } from './questions/active-users-during/question.ts';
import type { IncidentReleasesQuestion } from './questions/incident-releases/question.ts';
import type { IncidentSummariesQuestion } from './questions/incident-summaries/question.ts';
import type { NewReleaseOccurrencesQuestion } from './questions/new-release-occurrences/question.ts';
import type { OccurrenceByIdQuestion } from './questions/occurrence-by-id/question.ts';
import type { SessionTrailQuestion } from './questions/session-trail/question.ts';

/**
 * What the Incidents screens ask the event store: each question's signature, result and row schema in
 * questions/<question>/question.ts. Definitions: docs/acquisition-and-incidents.md.
 */
export type IncidentQuestions = IncidentSummariesQuestion &
  ActiveUsersDuringQuestion &
  OccurrenceByIdQuestion &
  SessionTrailQuestion &
  IncidentReleasesQuestion &
  NewReleaseOccurrencesQuestion;

export type { IncidentSpan } from './questions/active-users-during/question.ts';
export type { IncidentReleases } from './questions/incident-releases/question.ts';
export type {
  IncidentSummary,
  SummariesAndLives,
  SummaryOptions,
} from './questions/incident-summaries/question.ts';
export type { ResolvedInNextRelease } from './questions/new-release-occurrences/question.ts';
export type { StoredOccurrence } from './questions/occurrence-by-id/question.ts';
export type { StoredTrailEvent } from './questions/session-trail/question.ts';
