/**
 * Numbers and times for people. The console is in English, so the locale is fixed (en-US separators);
 * times are the project's time zone (src/lib/format.ts), like the server's buckets, and labelled so.
 */

const LOCALE = 'en-US';
const count = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 });
const twoDecimals = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });
const signedPercent = new Intl.NumberFormat(LOCALE, {
  style: 'percent',
  maximumFractionDigits: 1,
  signDisplay: 'exceptZero',
});

export const NOT_AVAILABLE = '—';

/** 12345 → "12,345". */
export const formatCount = (value: number): string => count.format(value);
const twoSignificant = new Intl.NumberFormat(LOCALE, { maximumSignificantDigits: 2 });

/**
 * 73.25 → "73.3", 1.25 → "1.3", 0.0333 → "0.033", 0.0004 → "< 0.01": averages of counts, rounded
 * honestly: something that happened never reads as 0.
 */
export function formatAverage(value: number): string {
  if (value === 0 || value >= 10) return oneDecimal.format(value);
  if (value < 0.01) return '< 0.01';
  return twoSignificant.format(value);
}
/** 1.234 → "1.23"; null (nothing to divide by) → "—". */
export function formatRatio(value: number | null): string {
  if (value === null) return NOT_AVAILABLE;
  return value > 0 && value < 0.01 ? '< 0.01' : twoDecimals.format(value);
}
/** 0.73 → "+73%", -0.1 → "-10%", 0 → "0%"; null → "—". */
export const formatTrend = (value: number | null): string =>
  value === null ? NOT_AVAILABLE : signedPercent.format(value);

/** Gas prices in gwei: two decimals above 1 gwei, three significant digits below (L2s pay fractions). */
export function formatGwei(gwei: number | null): string {
  if (gwei === null) return NOT_AVAILABLE;
  const format =
    Math.abs(gwei) >= 1 || gwei === 0
      ? twoDecimals
      : new Intl.NumberFormat(LOCALE, { maximumSignificantDigits: 3 });
  return `${format.format(gwei)} gwei`;
}

export const weiToGwei = (wei: number): number => wei / 1e9;

/** An exact decimal of `wei / 10^decimals` from a wei string, trailing zeros trimmed; null if not a number. */
function scaleWei(wei: string, decimals: number): string | null {
  if (!/^\d+$/.test(wei)) return null;
  const digits = wei.replace(/^0+(?=\d)/, '').padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  const grouped = count.format(BigInt(whole));
  return fraction ? `${grouped}.${fraction}` : grouped;
}

/** "250000000000000000" → "0.25 ETH" (exact). */
export function formatEth(wei: string | null): string {
  if (wei === null) return NOT_AVAILABLE;
  const value = scaleWei(wei, 18);
  return value === null ? wei : `${value} ETH`;
}

/** A wei amount per gas as gwei, exact: "23400000000" → "23.4 gwei". */
export function formatWeiAsGwei(wei: string | null): string {
  if (wei === null) return NOT_AVAILABLE;
  const value = scaleWei(wei, 9);
  return value === null ? wei : `${value} gwei`;
}

/** Gas units and other big decimal strings with separators: "21000" → "21,000". */
export function formatBigCount(value: string | null): string {
  if (value === null) return NOT_AVAILABLE;
  return /^\d+$/.test(value) ? count.format(BigInt(value)) : value;
}

/** "14:03:27", "Tuesday, 4 March 2025" and the local day key "2025-03-04": the console's one date format. */
export { formatDayHeading, formatTimeOfDay, localDayOf } from '../../../lib/format';

/** "desktop" → "Desktop": device types read like the other charts' names (Chrome, MetaMask). */
export function deviceName(key: string): string {
  return key === '' ? key : `${key.charAt(0).toUpperCase()}${key.slice(1)}`;
}
