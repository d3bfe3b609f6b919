import { z } from 'zod';
import { count } from '../../rows.ts';

/** An incident's life in whole UTC days: from its first to its last occurrence, both included. */
export type IncidentSpan = { incidentId: string; firstSeenMs: number; lastSeenMs: number };

/** Incidents whose lives cover the same UTC days (`YYYY-MM-DD`, both ends included) have the same reach. */
export type DaySpan = { firstDay: string; lastDay: string; incidentIds: string[] };

/**
 * Distinct users of the project with any event during each incident's life (its UTC days, both ends
 * included): the denominator of its reach (docs/acquisition-and-incidents.md#severity).
 */
export type ActiveUsersDuringQuestion = {
  activeUsersDuring(projectId: string, spans: readonly IncidentSpan[]): Promise<Map<string, number>>;
};

/** The users of each distinct day span, by its index in distinctDaySpans' answer. */
export const SpanUsersRow = z.object({ span: count, users: count });

const utcDayOf = (timeMs: number) => new Date(timeMs).toISOString().slice(0, 10);

/** The spans' distinct UTC day ranges, each with its incidents: every adapter counts each range once. */
export function distinctDaySpans(spans: readonly IncidentSpan[]): DaySpan[] {
  const byDays = new Map<string, DaySpan>();
  for (const span of spans) {
    const firstDay = utcDayOf(span.firstSeenMs);
    const lastDay = utcDayOf(span.lastSeenMs);
    const key = `${firstDay}/${lastDay}`;
    const daySpan = byDays.get(key) ?? { firstDay, lastDay, incidentIds: [] };
    daySpan.incidentIds.push(span.incidentId);
    byDays.set(key, daySpan);
  }
  return [...byDays.values()];
}
