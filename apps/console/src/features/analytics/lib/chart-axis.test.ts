import { describe, expect, it } from 'vitest';
import { countTicks, isolatedIndexes } from './chart-axis';

describe('count axis ticks', () => {
  it.each<[number, number[]]>([
    [0, [0, 1]],
    [1, [0, 1]],
    [3, [0, 1, 2, 3]],
    [4, [0, 2, 4]],
    [7, [0, 3, 6, 9]],
    [10, [0, 5, 10]],
    [100, [0, 50, 100]],
    [837, [0, 500, 1000]],
  ])('ends at or just above %d with whole steps, at most four ticks', (largest, ticks) => {
    expect(countTicks(largest)).toEqual(ticks);
  });
});

describe('lone points', () => {
  it('finds the values with no neighbour, so that one day of data is drawn', () => {
    expect([...isolatedIndexes([null, null, 23.4, null])]).toEqual([2]);
    expect([...isolatedIndexes([5, null, 1, 2, null, 7])]).toEqual([0, 5]);
    expect([...isolatedIndexes([null, null])]).toEqual([]);
  });
});
