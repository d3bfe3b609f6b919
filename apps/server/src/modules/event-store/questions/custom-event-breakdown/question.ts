import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count, textOrNull } from '../../rows.ts';

/** One value of a property of a custom event (docs/custom-events.md#breakdown). */
export type CustomEventBreakdownRow = {
  /** The property's value as text (numbers and booleans as JSON writes them); null: events without it. */
  value: string | null;
  events: number;
  users: number;
};

/** The custom events named `name` in the range, by the value of property `key`: most events first, at most `limit`. */
export type CustomEventBreakdownQuestion = {
  customEventBreakdown(
    projectId: string,
    range: TimeRange,
    name: string,
    key: string,
    limit: number,
  ): Promise<CustomEventBreakdownRow[]>;
};

export const CustomEventBreakdownSchema = z.object({ value: textOrNull, events: count, users: count });

/** A property key as a JSON pointer (RFC 6901): `~` and `/` escaped, so any key names one member. */
export const jsonPointerOf = (key: string) => `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
