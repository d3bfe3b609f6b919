import { describe, expect, it } from 'vitest';
import { QUARTER_MS, quarterParts, runsOnQuarters } from '../../src/modules/event-store/local-days.ts';
import { localDayRuns } from '../../src/reading/time-range.ts';

/** ADR 095: the split of a range at UTC quarter-hours, and which zones' local midnights lie on them. */
describe('quarter-hours of the zoned days', () => {
  const at = (iso: string) => Date.parse(iso);

  it('split a range into its whole quarter-hours and the ends outside them', () => {
    expect(quarterParts({ fromMs: at('2026-01-08T18:15:00Z'), toMs: at('2026-01-09T18:15:00Z') })).toEqual({
      quarters: { fromMs: at('2026-01-08T18:15:00Z'), toMs: at('2026-01-09T18:15:00Z') },
      pieces: [],
    });
    const from = at('2026-01-08T18:14:59.999Z');
    const to = at('2026-01-09T18:15:00.001Z');
    expect(quarterParts({ fromMs: from, toMs: to })).toEqual({
      quarters: { fromMs: from + 1, toMs: to - 1 },
      pieces: [
        { fromMs: from, toMs: from + 1 },
        { fromMs: to - 1, toMs: to },
      ],
    });
    // Within one quarter-hour, or across one boundary without a whole quarter-hour: all from the events.
    const short = { fromMs: at('2026-01-08T18:10:00Z'), toMs: at('2026-01-08T18:20:00Z') };
    expect(quarterParts(short)).toEqual({ quarters: null, pieces: [short] });
    expect(quarterParts({ fromMs: 5, toMs: 5 })).toEqual({ quarters: null, pieces: [] });
    expect(QUARTER_MS).toBe(15 * 60_000);
  });

  it('find every local midnight on a quarter-hour in today’s zones, and not in 1971 Monrovia (−00:44:30)', () => {
    const year = { fromMs: at('2026-01-01T00:00:00Z'), toMs: at('2026-12-31T00:00:00Z') };
    for (const zone of [
      'Europe/Berlin',
      'America/New_York',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Pacific/Chatham',
      'Australia/Lord_Howe',
    ]) {
      expect(runsOnQuarters(localDayRuns(year, zone) ?? []), zone).toBe(true);
    }
    const monrovia = localDayRuns(
      { fromMs: at('1971-03-01T00:00:00Z'), toMs: at('1971-03-10T00:00:00Z') },
      'Africa/Monrovia',
    );
    expect(monrovia).not.toBeNull();
    expect(runsOnQuarters(monrovia ?? [])).toBe(false);
  });
});
