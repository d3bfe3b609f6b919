import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count, text } from '../../rows.ts';

/** One day of a custom event's series (docs/custom-events.md#series). */
export type CustomEventDay = {
  /** The calendar day in the asked time zone, `YYYY-MM-DD`. */
  day: string;
  events: number;
  users: number;
};

/** The custom events named `name` in the range per calendar day of `timeZone` (IANA), days with events only. */
export type CustomEventSeriesQuestion = {
  customEventSeries(
    projectId: string,
    range: TimeRange,
    name: string,
    timeZone: string,
  ): Promise<CustomEventDay[]>;
};

export const CustomEventDaySchema = z.object({ day: text, events: count, users: count });
