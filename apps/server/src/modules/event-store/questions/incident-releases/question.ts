import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { flag, text, textOrNull } from '../../rows.ts';

/** An incident's releases (docs/releases.md): the first and last release it occurred in. */
export type IncidentReleases = {
  firstRelease: string | null;
  lastRelease: string | null;
  /** Whether it occurred in the asked release within the asked range (false when none was asked). */
  inRelease: boolean;
};

export type IncidentReleasesOptions = {
  /** Only this incident (the detail screen). */
  incidentId?: string;
  /** The list's release filter: `inRelease` says whether an occurrence of `range` came from it. */
  release?: { name: string; range: TimeRange };
};

/** The releases of a project's incidents, over their whole lives (occurrences without a release left out). */
export type IncidentReleasesQuestion = {
  /**
   * Per incident with an occurrence that carried a release: the release of its first and of its latest
   * such occurrence (client time, ties broken by event id). Incidents without one are not in the map.
   */
  incidentReleases(
    projectId: string,
    options?: IncidentReleasesOptions,
  ): Promise<Map<string, IncidentReleases>>;
};

export const IncidentReleasesRow = z.object({
  incident_id: text,
  first_release: textOrNull,
  last_release: textOrNull,
  in_release: flag,
});

export function releasesById(rows: readonly z.infer<typeof IncidentReleasesRow>[]) {
  return new Map(
    rows.map((row) => [
      row.incident_id,
      { firstRelease: row.first_release, lastRelease: row.last_release, inRelease: row.in_release },
    ]),
  );
}
