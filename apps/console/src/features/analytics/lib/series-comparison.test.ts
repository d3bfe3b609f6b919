import { describe, expect, it } from 'vitest';
import { alignPrevious, seriesCsv } from './series-comparison';

const bucket = (day: number, value: number | null) => ({
  from: `2026-11-${String(day).padStart(2, '0')}T00:00:00.000Z`,
  to: `2026-11-${String(day + 1).padStart(2, '0')}T00:00:00.000Z`,
  value,
});

describe('alignPrevious', () => {
  it('puts bucket i of the previous period beside bucket i of the range', () => {
    const points = alignPrevious(
      [bucket(22, 5), bucket(23, 0), bucket(24, 2)],
      [bucket(19, 3), bucket(20, 4)],
    );
    expect(
      points.map((p) => [
        p.value,
        p.previousValue,
        p.previousFrom === null ? null : p.previousFrom.slice(0, 10),
      ]),
    ).toEqual([
      [5, 3, '2026-11-19'],
      [0, 4, '2026-11-20'],
      // The previous period was cut at "now": no bucket, no value (not 0).
      [2, null, null],
    ]);
    expect(alignPrevious([bucket(22, 5)], undefined)[0]?.previousValue).toBeNull();
  });
});

describe('seriesCsv', () => {
  it('writes the buckets, and the previous ones beside them when the overlay shows', () => {
    const points = alignPrevious([bucket(22, 1.5), bucket(23, null)], [bucket(20, 2)]);
    expect(seriesCsv(points, 'average_gas_price_gwei', false)).toEqual({
      header: ['bucket_from', 'bucket_to', 'average_gas_price_gwei'],
      rows: [
        ['2026-11-22T00:00:00.000Z', '2026-11-23T00:00:00.000Z', 1.5],
        ['2026-11-23T00:00:00.000Z', '2026-11-24T00:00:00.000Z', null],
      ],
    });
    expect(seriesCsv(points, 'failed_transactions', true)).toEqual({
      header: [
        'bucket_from',
        'bucket_to',
        'failed_transactions',
        'previous_bucket_from',
        'previous_bucket_to',
        'previous_failed_transactions',
      ],
      rows: [
        [
          '2026-11-22T00:00:00.000Z',
          '2026-11-23T00:00:00.000Z',
          1.5,
          '2026-11-20T00:00:00.000Z',
          '2026-11-21T00:00:00.000Z',
          2,
        ],
        ['2026-11-23T00:00:00.000Z', '2026-11-24T00:00:00.000Z', null, null, null, null],
      ],
    });
  });
});
