import { describe, expect, it } from 'vitest';
import { compare, describeComparison } from './comparison';

describe('compare', () => {
  it('changes counts and averages relatively: (current − previous) / previous', () => {
    expect(compare(112, 100, 'relative')).toEqual({
      hasChange: true,
      direction: 'up',
      change: 0.12,
      magnitude: '12%',
    });
    expect(compare(50, 200, 'relative')).toMatchObject({
      direction: 'down',
      change: -0.75,
      magnitude: '75%',
    });
    // One decimal under 10 %, whole percents from 10 % up.
    expect(compare(1035, 1000, 'relative')).toMatchObject({ direction: 'up', magnitude: '3.5%' });
    expect(compare(2.5, 1, 'relative')).toMatchObject({ change: 1.5, magnitude: '150%' });
  });

  it('changes rates in percentage points', () => {
    const comparison = compare(0.031, 0.019, 'points');
    expect(comparison).toMatchObject({ hasChange: true, direction: 'up', magnitude: '1.2 pp' });
    expect(comparison.hasChange && comparison.change).toBeCloseTo(0.012, 10);
    expect(compare(0.2, 0.25, 'points')).toMatchObject({ direction: 'down', magnitude: '5 pp' });
    // From a previous rate of 0 a rate still has a change in points (0 % → 4 % = +4 pp).
    expect(compare(0.04, 0, 'points')).toMatchObject({ hasChange: true, direction: 'up', magnitude: '4 pp' });
  });

  it('says flat when nothing changed', () => {
    expect(compare(7, 7, 'relative')).toEqual({
      hasChange: true,
      direction: 'flat',
      change: 0,
      magnitude: '0%',
    });
    expect(compare(0.1, 0.1, 'points')).toMatchObject({ direction: 'flat', magnitude: '0 pp' });
    // Rounding noise of floating point is no change.
    expect(compare(0.1 + 0.2, 0.3, 'points')).toMatchObject({ direction: 'flat' });
  });

  it('has nothing to compare when the previous value is 0 or missing, or the current one is', () => {
    expect(compare(5, 0, 'relative')).toEqual({ hasChange: false, reason: 'no-previous' });
    expect(compare(0, 0, 'relative')).toEqual({ hasChange: false, reason: 'no-previous' });
    expect(compare(5, null, 'relative')).toEqual({ hasChange: false, reason: 'no-previous' });
    expect(compare(0.3, null, 'points')).toEqual({ hasChange: false, reason: 'no-previous' });
    expect(compare(null, 0.3, 'points')).toEqual({ hasChange: false, reason: 'no-current' });
  });

  it('says the change in words for screen readers', () => {
    expect(describeComparison(compare(112, 100, 'relative'))).toBe('up 12%');
    expect(describeComparison(compare(0.2, 0.25, 'points'))).toBe('down 5 pp');
    expect(describeComparison(compare(7, 7, 'relative'))).toBe('no change');
    expect(describeComparison(compare(7, 0, 'relative'))).toBe('nothing to compare with');
  });
});

describe('compare as shown', () => {
  it('reads as flat when the shown change rounds to 0 (77.2 % vs 77.2 % is no arrow)', () => {
    // 0.7721 vs 0.7724: −0.03 pp, shown "0 pp": neither a red nor a green arrow.
    expect(compare(0.7721, 0.7724, 'points')).toMatchObject({
      hasChange: true,
      direction: 'flat',
      change: 0,
      magnitude: '0 pp',
    });
    expect(compare(0.7724, 0.7721, 'points')).toMatchObject({ direction: 'flat', magnitude: '0 pp' });
    expect(describeComparison(compare(0.7721, 0.7724, 'points'))).toBe('no change');
    // 10,002 vs 10,000 is +0.02 %, shown "0%".
    expect(compare(10_002, 10_000, 'relative')).toMatchObject({ direction: 'flat', magnitude: '0%' });
    // A change that shows keeps its arrow.
    expect(compare(0.7721, 0.7731, 'points')).toMatchObject({ direction: 'down', magnitude: '0.1 pp' });
    expect(compare(1006, 1000, 'relative')).toMatchObject({ direction: 'up', magnitude: '0.6%' });
  });
});
