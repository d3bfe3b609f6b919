import { describe, expect, it } from 'vitest';
import { formatCount, formatEth, formatGwei, formatTrend, formatWeiAsGwei } from './format';

describe('formatting for people', () => {
  it('counts and trends', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatTrend(0.73)).toBe('+73%');
    expect(formatTrend(-0.105)).toBe('-10.5%');
    expect(formatTrend(0)).toBe('0%');
  });

  it('gas prices in gwei with sensible decimals', () => {
    expect(formatGwei(23.456)).toBe('23.46 gwei');
    expect(formatGwei(0.0201234)).toBe('0.0201 gwei');
    expect(formatWeiAsGwei('23400000000')).toBe('23.4 gwei');
    expect(formatWeiAsGwei('1')).toBe('0.000000001 gwei');
  });

  it('exact ETH amounts from wei strings beyond 2^53', () => {
    expect(formatEth('250000000000000000')).toBe('0.25 ETH');
    expect(formatEth('12345678901234567890123')).toBe('12,345.678901234567890123 ETH');
    expect(formatEth('0')).toBe('0 ETH');
    expect(formatEth(null)).toBe('—');
  });
});
