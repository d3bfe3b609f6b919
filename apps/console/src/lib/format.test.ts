import { describe, expect, it } from 'vitest';
import {
  countOf,
  countryName,
  formatDate,
  formatDateTime,
  formatPercent,
  localDayOf,
  setDisplayTimeZone,
  shortenAddress,
} from './format';

describe('the console’s one date and address format', () => {
  it('writes every time the same way, in UTC, and says so', () => {
    expect(formatDateTime('2026-11-24T07:30:22.417Z')).toBe('24 Nov 2026, 07:30:22 UTC');
    expect(formatDate('2026-11-24T23:59:59Z')).toBe('24 Nov 2026');
    expect(formatDateTime('not a date')).toBe('not a date');
  });

  it('shortens addresses and hashes alike: 0x and 4 characters, an ellipsis, the last 4', () => {
    expect(shortenAddress('0x1111222233334444555566667777888899990000')).toBe('0x1111…0000');
    expect(shortenAddress(`0x${'ab'.repeat(32)}`)).toBe('0xabab…abab');
    expect(shortenAddress('0x1234')).toBe('0x1234');
  });

  it('writes every rate the same way: one decimal at most, never 0% for something that happened', () => {
    expect(formatPercent(0.027)).toBe('2.7%');
    expect(formatPercent(31 / 800)).toBe('3.9%');
    expect(formatPercent(0.0002)).toBe('< 0.1%');
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(1)).toBe('100%');
    expect(formatPercent(null)).toBe('—');
  });
});

describe('words for people', () => {
  it('names countries, not codes', () => {
    expect(countryName('US')).toBe('United States');
    expect(countryName('jp')).toBe('Japan');
    expect(countryName(null)).toBe('Unknown');
  });

  it('counts one thing in the singular', () => {
    expect(countOf(1, 'incident')).toBe('1 incident');
    expect(countOf(0, 'incident')).toBe('0 incidents');
    expect(countOf(2574, 'user')).toBe('2,574 users');
  });
});

describe('dates in the project time zone', () => {
  it('writes times in the zone set by the shell and names it; an unknown zone is UTC', () => {
    try {
      setDisplayTimeZone('Europe/Berlin');
      expect(formatDateTime('2026-11-24T07:30:22.417Z')).toBe('24 Nov 2026, 08:30:22 CET');
      expect(formatDateTime('2026-07-24T07:30:22Z')).toBe('24 Jul 2026, 09:30:22 CEST');
      expect(formatDate('2026-11-24T23:30:00Z')).toBe('25 Nov 2026');
      setDisplayTimeZone('Asia/Kolkata');
      expect(localDayOf('2026-01-09T18:30:00Z')).toBe('2026-01-10');
      expect(localDayOf('2026-01-09T18:29:59.999Z')).toBe('2026-01-09');
      setDisplayTimeZone('Mars/Olympus_Mons');
      expect(formatDateTime('2026-11-24T07:30:22Z')).toBe('24 Nov 2026, 07:30:22 UTC');
    } finally {
      setDisplayTimeZone('UTC');
    }
  });
});
