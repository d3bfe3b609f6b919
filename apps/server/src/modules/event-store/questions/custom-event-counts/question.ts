import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count, text } from '../../rows.ts';

/** A custom event's figures over a range (docs/custom-events.md#counts). */
export type CustomEventCount = {
  name: string;
  /** Custom events of this name in the range. */
  events: number;
  /** Distinct users (the app's user id once identified, else the SDK user) who sent one. */
  users: number;
};

/** Every custom event name with events in the range, most events first (then name). */
export type CustomEventCountsQuestion = {
  customEventCounts(projectId: string, range: TimeRange): Promise<CustomEventCount[]>;
};

export const CustomEventCountSchema = z.object({ name: text, events: count, users: count });
