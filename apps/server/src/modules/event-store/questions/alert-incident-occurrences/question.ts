import { z } from 'zod';
import type { AlertWindow } from '../../alert-questions.ts';
import { count, textOrNull } from '../../rows.ts';

/** One incident's occurrences in a window's bucket, with its first occurrence ever and its name. */
export type AlertIncidentOccurrences = {
  window: number;
  bucket: number;
  incidentId: string;
  /** The incident's name: its latest occurrence's message, as the Incidents screen shows it. */
  title: string;
  occurrences: number;
  /** The latest occurrence in the bucket. */
  lastMs: number;
  /** The first occurrence ever (the incident's First Seen). */
  firstSeenMs: number;
};

/**
 * Occurrences per incident, window and bucket of their time, for many projects at once: the error events
 * of the incident sources (INCIDENT_SOURCES) grouped by `incident_id`, as the Incidents screens count them
 * (docs/acquisition-and-incidents.md). What `new_incident` (first seen), `incident_regression` (an
 * occurrence after a resolve) and `incident_spike` (occurrences in a window) are decided from.
 */
export type AlertIncidentOccurrencesQuestion = {
  alertIncidentOccurrences(windows: readonly AlertWindow[]): Promise<AlertIncidentOccurrences[]>;
};

export const AlertIncidentOccurrencesRow = z.object({
  window_index: count,
  bucket: count,
  incident_id: z.string(),
  title: textOrNull,
  occurrences: count,
  last_ms: count,
  first_seen_ms: count,
});

export const occurrencesOf = (
  row: z.infer<typeof AlertIncidentOccurrencesRow>,
): AlertIncidentOccurrences => ({
  window: row.window_index,
  bucket: row.bucket,
  incidentId: row.incident_id,
  title: row.title ?? '',
  occurrences: row.occurrences,
  lastMs: row.last_ms,
  firstSeenMs: row.first_seen_ms,
});
