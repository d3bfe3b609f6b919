import { describe, expect, it } from 'vitest';
import { formatCount, formatGwei } from './format';
import { seriesSummary } from './series-summary';

const bucket = (day: number, value: number | null) => ({
  from: `2026-11-${String(day).padStart(2, '0')}T00:00:00.000Z`,
  to: `2026-11-${String(day + 1).padStart(2, '0')}T00:00:00.000Z`,
  value,
});

describe('seriesSummary', () => {
  it('adds counts up and names the busiest bucket', () => {
    const buckets = [bucket(12, 100), bucket(13, 1_031), bucket(14, null), bucket(15, 0)];
    expect(seriesSummary(buckets, { granularity: '1d', kind: 'sum', format: formatCount })).toBe(
      '1,131 in all, most on 13 Nov (1,031)',
    );
  });

  it('gives the range of averages, which do not add up', () => {
    const buckets = [bucket(3, 12), bucket(4, null), bucket(5, 40.5)];
    expect(seriesSummary(buckets, { granularity: '1d', kind: 'range', format: formatGwei })).toBe(
      '12 gwei to 40.5 gwei, highest on 5 Nov (40.5 gwei)',
    );
  });

  it('says so when there is nothing', () => {
    expect(seriesSummary([bucket(3, null)], { granularity: '1d', kind: 'sum', format: formatCount })).toBe(
      'no values in this period',
    );
    expect(seriesSummary([bucket(3, 0)], { granularity: '1d', kind: 'sum', format: formatCount })).toBe(
      '0 in all',
    );
  });
});
