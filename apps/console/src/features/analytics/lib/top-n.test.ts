import { describe, expect, it } from 'vitest';
import { otherLabel, shareOf, splitTop, sumOf } from './top-n';

describe('top-N with Other', () => {
  it('shows the first rows and folds the rest', () => {
    expect(splitTop([5, 4, 3, 2, 1], 3)).toEqual({ shown: [5, 4, 3], rest: [2, 1] });
    expect(splitTop([2, 1], 3)).toEqual({ shown: [2, 1], rest: [] });
    expect(sumOf([{ v: 2 }, { v: 1 }], (row) => row.v)).toBe(3);
  });

  it('takes shares of the whole, not of the rows shown', () => {
    expect(shareOf(704, 2574)).toBeCloseTo(0.2735, 4);
    expect(shareOf(1, 0)).toBeNull();
    expect(otherLabel(1234)).toBe('Other (1,234 more)');
  });
});
