import { describe, expect, it } from 'vitest';
import { formatGranularity, parseGranularity } from '../../src/reading/granularity.ts';
import { InputError } from '../../src/reading/input-error.ts';
import {
  bucketRange,
  fillBuckets,
  MAX_BUCKETS,
  parseInstant,
  previousPeriod,
  resolveRange,
  utcDaysIn,
} from '../../src/reading/time-range.ts';

const H = 3_600_000;
const D = 24 * H;
const t = (iso: string) => Date.parse(iso);

describe('parseGranularity', () => {
  it.each([
    ['1d', D],
    ['7d', 7 * D],
    ['1h 30m', 1.5 * H],
    ['1d 2h 3m 5s', D + 2 * H + 3 * 60_000 + 5000],
    ['  1H  ', H],
    ['2w', 14 * D],
    ['90s', 90_000],
  ])('%s → %d ms', (text, ms) => {
    expect(parseGranularity(text)).toEqual({ ok: true, ms });
  });

  it.each(['', 'd', '1', '1x', '1.5d', '-1d', '1m 1h', '1d 1d', '0s', '1mo', '1d,2h', '9999999d', '3651d'])(
    'rejects %j with a message',
    (text) => {
      const result = parseGranularity(text);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toMatch(/Invalid granularity/);
    },
  );

  it('formats back to the canonical text', () => {
    expect(formatGranularity(D + 2 * H + 5000)).toBe('1d 2h 5s');
    expect(formatGranularity(7 * D)).toBe('1w');
  });
});

describe('parseInstant', () => {
  it('reads ISO date-times with a zone and dates as UTC midnight', () => {
    expect(parseInstant('2024-03-01', 'from')).toBe(t('2024-03-01T00:00:00Z'));
    expect(parseInstant('2024-03-01T10:00:00+02:00', 'from')).toBe(t('2024-03-01T08:00:00Z'));
    expect(parseInstant('2024-03-01T10:00Z', 'from')).toBe(t('2024-03-01T10:00:00Z'));
    expect(parseInstant('2024-03-01T10:00:00.123Z', 'from')).toBe(t('2024-03-01T10:00:00.123Z'));
  });

  it.each([
    'yesterday',
    '2024-03-01T10:00:00',
    '2024-02-30',
    '2024-13-01',
    '1969-12-31',
    '01.03.2024',
    '2024-03-01T25:00:00Z',
  ])('rejects %j', (text) => {
    expect(() => parseInstant(text, 'from')).toThrow(InputError);
  });
});

describe('resolveRange', () => {
  const now = t('2024-06-15T12:00:00Z');
  const span = { firstMs: t('2024-05-10T17:30:00Z'), lastMs: t('2024-06-20T08:00:00Z') };

  it('keeps an explicit range', () => {
    expect(resolveRange({ from: '2024-06-01', to: '2024-06-08' }, span, now)).toEqual({
      fromMs: t('2024-06-01T00:00:00Z'),
      toMs: t('2024-06-08T00:00:00Z'),
    });
  });

  it('closes open ends with the day of the first event and after the last event (or now)', () => {
    expect(resolveRange({}, span, now)).toEqual({ fromMs: t('2024-05-10T00:00:00Z'), toMs: span.lastMs + 1 });
    expect(resolveRange({}, null, now)).toEqual({ fromMs: t('2024-06-15T00:00:00Z'), toMs: now });
  });

  it('rejects from ≥ to', () => {
    expect(() => resolveRange({ from: '2024-06-08', to: '2024-06-08' }, span, now)).toThrow(/must be before/);
    expect(() => resolveRange({ from: '2024-06-09', to: '2024-06-08' }, span, now)).toThrow(InputError);
  });
});

describe('buckets', () => {
  const range = { fromMs: t('2024-01-30T00:00:00Z'), toMs: t('2024-02-02T12:00:00Z') };

  it('steps from `from` and clips the last bucket at `to`', () => {
    const bucketed = bucketRange(range, '1d');
    expect(bucketed.bucketCount).toBe(4);
    const buckets = fillBuckets(bucketed, new Map([[2, 5]]), 0);
    expect(buckets).toEqual([
      { from: '2024-01-30T00:00:00.000Z', to: '2024-01-31T00:00:00.000Z', value: 0 },
      { from: '2024-01-31T00:00:00.000Z', to: '2024-02-01T00:00:00.000Z', value: 0 },
      { from: '2024-02-01T00:00:00.000Z', to: '2024-02-02T00:00:00.000Z', value: 5 },
      { from: '2024-02-02T00:00:00.000Z', to: '2024-02-02T12:00:00.000Z', value: 0 },
    ]);
  });

  it('is one bucket over the range without a granularity', () => {
    const bucketed = bucketRange(range);
    expect(fillBuckets(bucketed, new Map(), null)).toEqual([
      { from: '2024-01-30T00:00:00.000Z', to: '2024-02-02T12:00:00.000Z', value: null },
    ]);
  });

  it(`refuses more than ${MAX_BUCKETS} buckets instead of truncating`, () => {
    const ninetyDays = { fromMs: 0, toMs: 90 * D };
    expect(bucketRange(ninetyDays, '30m').bucketCount).toBe(4320);
    expect(() => bucketRange(ninetyDays, '1m')).toThrow(/129600 buckets; the limit is 5000/);
  });

  it('has a previous period of equal length and counts touched UTC days', () => {
    expect(previousPeriod({ fromMs: 10 * D, toMs: 17 * D })).toEqual({ fromMs: 3 * D, toMs: 10 * D });
    // A period still running (today, 7 h in) is compared with the same 7 h of the one before.
    expect(previousPeriod({ fromMs: 10 * D, toMs: 11 * D }, 10 * D + 7 * H)).toEqual({
      fromMs: 9 * D,
      toMs: 9 * D + 7 * H,
    });
    expect(previousPeriod({ fromMs: 10 * D, toMs: 17 * D }, 20 * D)).toEqual({ fromMs: 3 * D, toMs: 10 * D });
    expect(utcDaysIn({ fromMs: 10 * D, toMs: 17 * D })).toBe(7);
    expect(utcDaysIn({ fromMs: 10 * D + H, toMs: 11 * D + H })).toBe(2);
    expect(utcDaysIn({ fromMs: 10 * D, toMs: 10 * D + H })).toBe(1);
  });
});
