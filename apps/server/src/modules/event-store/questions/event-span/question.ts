import { z } from 'zod';
import type { EventSpan } from '../../../../reading/time-range.ts';
import { count, numberOrNull } from '../../rows.ts';

/** The project's first and last event times: what "all time" means for an open range (docs/analytics.md#conventions). */
export type EventSpanQuestion = {
  eventSpan(projectId: string): Promise<EventSpan>;
};

export const EventSpanRow = z.object({ events: count, first_ms: numberOrNull, last_ms: numberOrNull });

export function eventSpanOf(row: z.infer<typeof EventSpanRow> | undefined): EventSpan {
  if (!row || row.events === 0 || row.first_ms === null || row.last_ms === null) return null;
  return { firstMs: row.first_ms, lastMs: row.last_ms };
}
