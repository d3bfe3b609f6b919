import { describe, expect, it } from 'vitest';
import { lastCompletedPeriod, periodTitle, zonedMidnight } from '../../src/modules/reports/periods.ts';

/** The weeks and months reports cover (docs/reports.md), in UTC and in a zone with daylight saving. */
const iso = (period: { fromMs: number; toMs: number }) => [
  new Date(period.fromMs).toISOString(),
  new Date(period.toMs).toISOString(),
];

describe('lastCompletedPeriod', () => {
  it('is the past Monday to Sunday for a weekly report, whatever the day of the week', () => {
    for (const now of ['2026-11-23T00:00:00Z', '2026-11-23T06:00:00Z', '2026-11-29T23:59:59Z']) {
      expect(iso(lastCompletedPeriod('weekly', Date.parse(now))), now).toEqual([
        '2026-11-16T00:00:00.000Z',
        '2026-11-23T00:00:00.000Z',
      ]);
    }
    expect(iso(lastCompletedPeriod('weekly', Date.parse('2026-11-22T23:59:59.999Z')))).toEqual([
      '2026-11-09T00:00:00.000Z',
      '2026-11-16T00:00:00.000Z',
    ]);
  });

  it('is the past calendar month for a monthly report, across a year and a leap February', () => {
    expect(iso(lastCompletedPeriod('monthly', Date.parse('2026-12-01T00:00:00Z')))).toEqual([
      '2026-11-01T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
    ]);
    expect(iso(lastCompletedPeriod('monthly', Date.parse('2027-01-15T12:00:00Z')))).toEqual([
      '2026-12-01T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    ]);
    expect(iso(lastCompletedPeriod('monthly', Date.parse('2028-03-01T08:00:00Z')))).toEqual([
      '2028-02-01T00:00:00.000Z',
      '2028-03-01T00:00:00.000Z',
    ]);
  });

  it('cuts at the zone’s midnights when given one, daylight saving included', () => {
    // Berlin left summer time on 2026-10-25: that week is 169 hours long.
    expect(iso(lastCompletedPeriod('weekly', Date.parse('2026-10-26T12:00:00Z'), 'Europe/Berlin'))).toEqual([
      '2026-10-18T22:00:00.000Z',
      '2026-10-25T23:00:00.000Z',
    ]);
    // Sunday 23:30 UTC is already Monday in Berlin.
    expect(iso(lastCompletedPeriod('weekly', Date.parse('2026-11-22T23:30:00Z'), 'Europe/Berlin'))).toEqual([
      '2026-11-15T23:00:00.000Z',
      '2026-11-22T23:00:00.000Z',
    ]);
    expect(
      iso(lastCompletedPeriod('monthly', Date.parse('2026-04-01T12:00:00Z'), 'America/New_York')),
    ).toEqual(['2026-03-01T05:00:00.000Z', '2026-04-01T04:00:00.000Z']);
  });

  it('names the period as the email says it', () => {
    expect(periodTitle(lastCompletedPeriod('weekly', Date.parse('2026-11-23T06:00:00Z')))).toBe(
      '2026-11-16 to 2026-11-22',
    );
    expect(periodTitle(lastCompletedPeriod('monthly', Date.parse('2026-12-01T06:00:00Z')))).toBe(
      'November 2026',
    );
    const berlin = lastCompletedPeriod('monthly', Date.parse('2026-12-01T06:00:00Z'), 'Europe/Berlin');
    expect(periodTitle(berlin, 'Europe/Berlin')).toBe('November 2026');
  });
});

describe('zonedMidnight', () => {
  it('is the first instant of the local day, where the clocks spring forward soon after or at midnight', () => {
    const at = (zone: string, year: number, month: number, day: number) =>
      new Date(zonedMidnight({ year, month, day }, zone)).toISOString();
    // Jerusalem (UTC+2, then +3 from 02:00 on 27 March 2026): the day starts at 00:00 +02:00.
    expect(at('Asia/Jerusalem', 2026, 3, 27)).toBe('2026-03-26T22:00:00.000Z');
    // Cairo, Beirut and Santiago skip midnight itself (00:00 → 01:00): the day starts at 01:00.
    expect(at('Africa/Cairo', 2026, 4, 24)).toBe('2026-04-23T22:00:00.000Z');
    expect(at('Asia/Beirut', 2026, 3, 29)).toBe('2026-03-28T22:00:00.000Z');
    expect(at('America/Santiago', 2026, 9, 6)).toBe('2026-09-06T04:00:00.000Z');
    // And where they go back: the day starts at the first of the two midnights it does not have twice.
    expect(at('America/New_York', 2026, 11, 1)).toBe('2026-11-01T04:00:00.000Z');
    expect(at('America/New_York', 2026, 11, 2)).toBe('2026-11-02T05:00:00.000Z');
  });
});
