import { z } from 'zod';
import type { AlertWindow } from '../../alert-questions.ts';
import { count } from '../../rows.ts';

/** A window's (or bucket's) latest event. */
export type AlertLastEvent = { window: number; bucket: number; lastMs: number };

/**
 * The latest event (client time, any type) per window and bucket, for many projects at once: what
 * `no_events` is decided from. Buckets without an event are absent.
 */
export type AlertLastEventsQuestion = {
  alertLastEvents(windows: readonly AlertWindow[]): Promise<AlertLastEvent[]>;
};

export const AlertLastEventRow = z.object({ window_index: count, bucket: count, last_ms: count });

export const lastEventOf = (row: z.infer<typeof AlertLastEventRow>): AlertLastEvent => ({
  window: row.window_index,
  bucket: row.bucket,
  lastMs: row.last_ms,
});
