import { describe, expect, it } from 'vitest';
import { periodFromSearchParams, periodToSearchParams, resolvePeriod } from './periods';

// 2025-03-31 15:30 UTC: the end of a month, so 6M crosses month lengths.
const NOW = Date.parse('2025-03-31T15:30:00Z');

describe('resolvePeriod', () => {
  it.each([
    ['today', '2025-03-31T00:00:00.000Z', '2025-04-01T00:00:00.000Z', '1h'],
    ['yesterday', '2025-03-30T00:00:00.000Z', '2025-03-31T00:00:00.000Z', '1h'],
    ['7d', '2025-03-25T00:00:00.000Z', '2025-04-01T00:00:00.000Z', '1d'],
    ['30d', '2025-03-02T00:00:00.000Z', '2025-04-01T00:00:00.000Z', '1d'],
    ['90d', '2025-01-01T00:00:00.000Z', '2025-04-01T00:00:00.000Z', '1d'],
    ['6m', '2024-10-01T00:00:00.000Z', '2025-04-01T00:00:00.000Z', '7d'],
  ] as const)('%s covers whole UTC days up to the end of today', (id, from, to, granularity) => {
    expect(resolvePeriod({ kind: 'preset', id }, NOW)).toMatchObject({ from, to, granularity });
  });

  it('includes both ends of a custom range and labels it', () => {
    expect(resolvePeriod({ kind: 'custom', from: '2024-02-28', to: '2024-03-01' }, NOW)).toEqual({
      from: '2024-02-28T00:00:00.000Z',
      to: '2024-03-02T00:00:00.000Z',
      granularity: '1d',
      label: '28 Feb 2024 – 1 Mar 2024 (UTC)',
    });
    expect(resolvePeriod({ kind: 'custom', from: '2024-02-28', to: '2024-02-28' }, NOW).label).toBe(
      '28 Feb 2024 (UTC)',
    );
  });
});

describe('period search params', () => {
  it('round-trips presets and custom ranges, keeping other parameters', () => {
    const params = periodToSearchParams(
      { kind: 'custom', from: '2025-01-01', to: '2025-01-31' },
      new URLSearchParams('tab=history'),
    );
    expect(params.toString()).toBe('tab=history&period=custom&from=2025-01-01&to=2025-01-31');
    expect(periodFromSearchParams(params)).toEqual({ kind: 'custom', from: '2025-01-01', to: '2025-01-31' });
    const preset = periodToSearchParams({ kind: 'preset', id: '90d' }, params);
    expect(preset.toString()).toBe('tab=history&period=90d');
  });

  it.each([
    'period=weekly',
    'period=custom&from=2025-02-30&to=2025-03-01',
    'period=custom&from=2025-03-02&to=2025-03-01',
    'period=custom&from=yesterday',
  ])('falls back to 30D for %s', (query) => {
    expect(periodFromSearchParams(new URLSearchParams(query))).toEqual({ kind: 'preset', id: '30d' });
  });
});

describe('periods in the project time zone (docs/timezone.md)', () => {
  it('Today and Yesterday are local days, sent as the instants of their local midnights', () => {
    // 2026-03-29 12:00 UTC is 14:00 in Berlin on the 23-hour day of the spring change.
    const now = Date.parse('2026-03-29T12:00:00Z');
    expect(resolvePeriod({ kind: 'preset', id: 'today' }, now, 'Europe/Berlin')).toMatchObject({
      from: '2026-03-28T23:00:00.000Z',
      to: '2026-03-29T22:00:00.000Z',
      granularity: '1h',
      label: '29 Mar 2026 (Europe/Berlin)',
    });
    expect(resolvePeriod({ kind: 'preset', id: 'yesterday' }, now, 'Europe/Berlin')).toMatchObject({
      from: '2026-03-27T23:00:00.000Z',
      to: '2026-03-28T23:00:00.000Z',
    });
    // 03:00 UTC on 1 Nov is still 31 Oct in New York; its 1 Nov (the fall change) lasts 25 hours.
    const early = Date.parse('2026-11-01T03:00:00Z');
    expect(resolvePeriod({ kind: 'preset', id: 'today' }, early, 'America/New_York')).toMatchObject({
      from: '2026-10-31T04:00:00.000Z',
      to: '2026-11-01T04:00:00.000Z',
    });
    const later = Date.parse('2026-11-01T12:00:00Z');
    expect(resolvePeriod({ kind: 'preset', id: 'today' }, later, 'America/New_York')).toMatchObject({
      from: '2026-11-01T04:00:00.000Z',
      to: '2026-11-02T05:00:00.000Z',
    });
    // 20:00 UTC is already tomorrow in Kolkata (+05:30).
    const evening = Date.parse('2026-01-09T20:00:00Z');
    expect(resolvePeriod({ kind: 'preset', id: 'today' }, evening, 'Asia/Kolkata')).toMatchObject({
      from: '2026-01-09T18:30:00.000Z',
      to: '2026-01-10T18:30:00.000Z',
      label: '10 Jan 2026 (Asia/Kolkata)',
    });
  });

  it('a week across a change is seven local days, and custom dates are local dates', () => {
    const now = Date.parse('2026-03-30T08:00:00Z');
    expect(resolvePeriod({ kind: 'preset', id: '7d' }, now, 'Europe/Berlin')).toMatchObject({
      from: '2026-03-23T23:00:00.000Z',
      to: '2026-03-30T22:00:00.000Z',
      granularity: '1d',
    });
    expect(
      resolvePeriod({ kind: 'custom', from: '2026-10-25', to: '2026-10-25' }, now, 'Europe/Berlin'),
    ).toMatchObject({ from: '2026-10-24T22:00:00.000Z', to: '2026-10-25T23:00:00.000Z', granularity: '1h' });
  });
});
