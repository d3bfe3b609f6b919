import { DEFAULT_TIME_ZONE, isTimeZone } from '@polyflow/contracts/time-zone';
import type { ProjectAccess } from '../../lib/access.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { InputError } from '../../reading/input-error.ts';
import {
  type ComparableRangeInput,
  comparedRange,
  MAX_BUCKETS,
  needsSpan,
  type RangeInput,
  resolveRange,
  type TimeRange,
} from '../../reading/time-range.ts';
import type {
  CustomEventBreakdownRow,
  CustomEventCount,
  CustomEventDay,
  CustomEventQuestions,
} from '../event-store/custom-event-questions.ts';

export type CustomEventsServiceDeps = {
  projects: ProjectAccess;
  /** The event store's read side: the questions the Events screen asks. */
  store: CustomEventQuestions;
  clock?: Clock;
};

export type CustomEventsService = ReturnType<typeof createCustomEventsService>;

/** A name or property key as the SDK may send it: 1–64 characters, no control character (contracts). */
const NAME = /^[^\p{Cc}\p{Cs}]{1,64}$/u;

function checkedName(value: string, what: string): string {
  if (value.length > 64 || !NAME.test(value))
    throw new InputError(`${what} must be 1 to 64 characters without control characters.`);
  return value;
}

/**
 * A time zone a project may choose (`Europe/Berlin`, `UTC`, a former name such as `Asia/Calcutta`), or
 * BAD_USER_INPUT naming it. Not any spelling Intl resolves: `europe/berlin` or `US/Pacific-New` passed
 * Intl, and ClickHouse, which knows names exactly, answered INTERNAL_ERROR.
 */
export function checkedTimeZone(value: string | null | undefined): string {
  const zone = value ?? DEFAULT_TIME_ZONE;
  if (!isTimeZone(zone)) {
    throw new InputError(`Unknown timeZone "${zone.slice(0, 64)}": use an IANA name such as Europe/Berlin.`);
  }
  return zone;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The calendar day after `day` (`YYYY-MM-DD`), by date arithmetic alone. */
function nextDate(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const next = new Date(0);
  next.setUTCFullYear(year, month - 1, date + 1);
  return next.toISOString().slice(0, 10);
}

/**
 * Every calendar day of `timeZone` the range touches, `YYYY-MM-DD`, in order: the days of the instants
 * `fromMs + k` hours and the range's last instant. Formatting all those hours cost 120,000 Intl calls for
 * a 5,000-day range (about 100 ms of the event loop, 2 s for a request of 20 such series, which every
 * other tenant waited for), so the walk takes day-long steps and formats the hours between two steps only
 * where the step did not land on the same or the next calendar day (a 23-hour day, a skipped date, a
 * date line moved): the same days, about 24 times fewer calls.
 */
export function daysOf(range: TimeRange, timeZone: string): string[] {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  // One row per day, as every series: at most MAX_BUCKETS, refused beyond rather than truncated (or walked
  // hour by hour over a range that can span millennia).
  const dayCount = Math.ceil((range.toMs - range.fromMs) / DAY_MS) + 1;
  if (dayCount > MAX_BUCKETS) {
    throw new InputError(
      `This range makes ${dayCount} days; the series shows at most ${MAX_BUCKETS}. Choose a shorter range.`,
    );
  }
  const days: string[] = [];
  const add = (day: string) => {
    if (days.at(-1) !== day) days.push(day);
  };
  // Hour steps meet every local day (a day lasts 23 to 25 hours); the last instant closes the range.
  let ms = range.fromMs;
  let day = ms < range.toMs ? format.format(ms) : undefined;
  if (day !== undefined) add(day);
  while (day !== undefined) {
    const stepMs = ms + DAY_MS;
    if (stepMs >= range.toMs) {
      for (let hour = ms + HOUR_MS; hour < range.toMs; hour += HOUR_MS) add(format.format(hour));
      break;
    }
    const stepDay = format.format(stepMs);
    if (stepDay !== day && stepDay !== nextDate(day)) {
      for (let hour = ms + HOUR_MS; hour < stepMs; hour += HOUR_MS) add(format.format(hour));
    }
    add(stepDay);
    ms = stepMs;
    day = stepDay;
  }
  const last = range.toMs > range.fromMs ? format.format(range.toMs - 1) : undefined;
  if (last && days.at(-1) !== last) days.push(last);
  return days;
}

/** The Events screen's figures (docs/custom-events.md). Every call first checks the caller reads the project. */
export function createCustomEventsService({ projects, store, clock = systemClock }: CustomEventsServiceDeps) {
  async function ownedRange(
    userId: string,
    projectId: string,
    input: ComparableRangeInput,
  ): Promise<TimeRange> {
    const { timeZone } = await projects.getProjectFor(userId, projectId);
    const span = needsSpan(input) ? await store.eventSpan(projectId) : null;
    const nowMs = clock().getTime();
    // "All time" starts at the local midnight of the project's first event (docs/timezone.md).
    return comparedRange(resolveRange(input, span, nowMs, timeZone), input.previous === true, nowMs);
  }

  return {
    /** Custom events by name, with their users; `previous`: the same over the period before. */
    async counts(
      userId: string,
      projectId: string,
      input: ComparableRangeInput,
    ): Promise<CustomEventCount[]> {
      return store.customEventCounts(projectId, await ownedRange(userId, projectId, input));
    },

    async breakdown(
      userId: string,
      projectId: string,
      input: RangeInput & { name: string; key: string; limit: number },
    ): Promise<CustomEventBreakdownRow[]> {
      const name = checkedName(input.name, 'name');
      const key = checkedName(input.key, 'key');
      const range = await ownedRange(userId, projectId, input);
      return store.customEventBreakdown(projectId, range, name, key, input.limit);
    },

    /** Every day of the range in `timeZone` (default UTC), days without events at 0. */
    async series(
      userId: string,
      projectId: string,
      input: RangeInput & { name: string; timeZone?: string | null },
    ): Promise<CustomEventDay[]> {
      const name = checkedName(input.name, 'name');
      const timeZone = checkedTimeZone(input.timeZone);
      const range = await ownedRange(userId, projectId, input);
      const rows = new Map(
        (await store.customEventSeries(projectId, range, name, timeZone)).map((row) => [row.day, row]),
      );
      return daysOf(range, timeZone).map((day) => rows.get(day) ?? { day, events: 0, users: 0 });
    },
  };
}
