import { describe, expect, it } from 'vitest';
import { daysOf } from '../../src/modules/custom-events/service.ts';
import type { TimeRange } from '../../src/reading/time-range.ts';

/**
 * customEventSeries lists every local day of its range. The days were found by formatting every hour of
 * the range: 120,000 Intl calls for 5,000 days, and one request of 20 aliased series held the event loop
 * for about 2 s, during which every other tenant's requests waited (round-39 attack). The definition stays
 * "the days of the range's hours and its last instant": `hourlyDays` below is that definition as code.
 */
function hourlyDays(range: TimeRange, timeZone: string): string[] {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const days: string[] = [];
  for (let ms = range.fromMs; ms < range.toMs; ms += 3_600_000) {
    const day = format.format(ms);
    if (days.at(-1) !== day) days.push(day);
  }
  const last = range.toMs > range.fromMs ? format.format(range.toMs - 1) : undefined;
  if (last && days.at(-1) !== last) days.push(last);
  return days;
}

const DAY_MS = 86_400_000;
const at = (iso: string) => Date.parse(iso);

/** A deterministic sequence in [0, 1), so that a failure can be replayed. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('customEventSeries days (daysOf)', () => {
  it('answers the days of the hourly definition where zones skip, repeat or shorten a day', () => {
    const cases: [string, string, string][] = [
      // Samoa skipped 2011-12-30 (the date line moved), Kiritimati 1994-12-31, Kwajalein 1993-08-21.
      ['Pacific/Apia', '2011-12-25T00:00:00Z', '2012-01-05T00:00:00Z'],
      ['Pacific/Kiritimati', '1994-12-20T00:00:00Z', '1995-01-10T00:00:00Z'],
      ['Pacific/Kwajalein', '1993-08-15T00:00:00Z', '1993-08-30T00:00:00Z'],
      // Daylight saving: 23- and 25-hour days, 30-minute shifts, a 2-hour shift, changes at midnight.
      ['Europe/Berlin', '2024-03-20T05:17:00Z', '2024-11-05T00:00:00Z'],
      ['Australia/Lord_Howe', '2023-03-25T00:00:00Z', '2023-10-10T00:00:00Z'],
      ['Antarctica/Troll', '2024-03-25T00:00:00Z', '2024-11-01T00:00:00Z'],
      ['America/Sao_Paulo', '2017-10-01T00:00:00Z', '2018-03-01T00:00:00Z'],
      ['America/Havana', '2024-03-01T00:00:00Z', '2024-11-10T00:00:00Z'],
      ['Asia/Kathmandu', '1985-12-25T00:00:00Z', '1986-01-10T00:00:00Z'],
      // 5,000 days, the longest range a series takes.
      ['Pacific/Apia', '2000-01-01T00:00:00Z', '2013-09-08T00:00:00Z'],
      ['America/St_Johns', '2010-01-01T03:33:00Z', '2023-09-08T00:00:00Z'],
    ];
    for (const [zone, from, to] of cases) {
      const range = { fromMs: at(from), toMs: at(to) };
      expect(daysOf(range, zone), `${zone} ${from} ${to}`).toEqual(hourlyDays(range, zone));
    }
  });

  it('answers the same days as the hourly definition over random ranges of every zone', () => {
    const random = sequence(39);
    const start = at('1990-01-01T00:00:00Z');
    for (const zone of Intl.supportedValuesOf('timeZone')) {
      const fromMs = start + Math.floor(random() * 40 * 365) * DAY_MS + Math.floor(random() * DAY_MS);
      const range = { fromMs, toMs: fromMs + Math.floor(random() * 400 * DAY_MS) };
      expect(daysOf(range, zone), `${zone} ${fromMs} ${range.toMs}`).toEqual(hourlyDays(range, zone));
    }
  });

  it('answers an empty or one-instant range as the definition does', () => {
    const now = at('2026-12-02T07:00:00Z');
    expect(daysOf({ fromMs: now, toMs: now }, 'UTC')).toEqual([]);
    expect(daysOf({ fromMs: now, toMs: now + 1 }, 'Pacific/Kiritimati')).toEqual(
      hourlyDays({ fromMs: now, toMs: now + 1 }, 'Pacific/Kiritimati'),
    );
  });

  it('lists 5,000 days with a formatting call per day, not one per hour', () => {
    // The work is the formatter's calls, counted rather than timed (a timed test fails on a busy machine):
    // each call of a formatter's `format` is counted through its getter.
    const original = Object.getOwnPropertyDescriptor(Intl.DateTimeFormat.prototype, 'format');
    const read = original?.get;
    if (!read) throw new Error('Intl.DateTimeFormat.prototype.format is not a getter here');
    let calls = 0;
    // The standard makes `format` a getter (TypeScript's types call it a method): it is replaced, and put back.
    Object.defineProperty(Intl.DateTimeFormat.prototype, 'format', {
      ...original,
      get(this: Intl.DateTimeFormat) {
        const format = read.call(this) as (date?: number | Date) => string;
        return (date?: number | Date) => {
          calls += 1;
          return format(date);
        };
      },
    });
    try {
      const range = { fromMs: at('2013-03-26T00:00:00Z'), toMs: at('2026-12-02T00:00:00Z') };
      const count = (days: (range: TimeRange, zone: string) => string[]) => {
        calls = 0;
        const listed = days(range, 'Pacific/Kiritimati');
        return { days: listed.length, calls };
      };
      const hourly = count(hourlyDays);
      const daily = count(daysOf);
      expect(daily.days).toBe(hourly.days);
      expect(hourly.calls).toBeGreaterThan(24 * (hourly.days - 2));
      // One call a day, the hours of the range's last day (the walk ends hour by hour) and the last instant:
      // no day of this range is skipped or short. Formatting every hour made 24 calls a day.
      expect(daily.calls).toBeLessThanOrEqual(daily.days + 24 + 1);
    } finally {
      Object.defineProperty(Intl.DateTimeFormat.prototype, 'format', original as PropertyDescriptor);
    }
  });
});
