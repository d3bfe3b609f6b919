import { z } from 'zod';
import { text } from '../../rows.ts';

/** An incident resolved "in next release" at `sinceMs` (server time of the resolve). */
export type ResolvedInNextRelease = { incidentId: string; sinceMs: number };

/** "Resolve in next release" regressions (docs/releases.md). */
export type NewReleaseOccurrencesQuestion = {
  /**
   * The incidents among `resolved` that occurred (received) after their `sinceMs` in a release whose first
   * event of the project was received after that same time: a release newer than every release current at
   * the resolve. Occurrences without a release, or in a release already seen before, do not count.
   */
  newReleaseOccurrences(projectId: string, resolved: readonly ResolvedInNextRelease[]): Promise<Set<string>>;
};

export const IncidentIdRow = z.object({ incident_id: text });
