import type { AnalyticsOverview } from '@polyflow/contracts/analytics';
import { localDaysIn, startOfLocalDay } from '@polyflow/contracts/time-zone';
import { type ChangeKind, type Comparison, compare } from '../../../lib/comparison';
import type { CsvTable } from '../../../lib/csv';
import { displayTimeZone, formatHourMinute, formatPercent, zoneAbbreviation } from '../../../lib/format';
import { formatAverage, formatCount, formatRatio, formatTrend } from './format';

/**
 * The seven tiles of the spec, in its order, and how each compares with the previous period. Each says in
 * words what it counts, so that a figure can be checked at a glance; the definitions are docs/analytics.md's.
 */
export interface TileSpec {
  label: string;
  /** The raw figure: what the comparison and the CSV use. */
  figure: (overview: AnalyticsOverview) => number | null;
  format: (value: number | null) => string;
  hint: (overview: AnalyticsOverview) => string;
  /** How it changes against the previous period; none for the trend tile, which is a change itself. */
  change?: { kind: ChangeKind; better: 'up' | 'down' };
}

const count = (value: number | null) => (value === null ? '—' : formatCount(value));
const average = (value: number | null) => (value === null ? '—' : formatAverage(value));

export const TILES: TileSpec[] = [
  {
    label: 'Total Transactions',
    figure: (o) => o.totalTransactions,
    format: count,
    hint: (o) =>
      `Requested in this period, any outcome; ${formatCount(o.submittedTransactions)} reached the chain`,
    change: { kind: 'relative', better: 'up' },
  },
  {
    label: 'Unique Wallets',
    figure: (o) => o.connectedWallets,
    format: count,
    hint: () => 'Wallets that connected in this period',
    change: { kind: 'relative', better: 'up' },
  },
  {
    label: 'New Wallets Connected',
    figure: (o) => o.newWallets,
    format: count,
    hint: () => 'Of those, first seen in this period',
    change: { kind: 'relative', better: 'up' },
  },
  {
    label: 'Transaction Fail Rate',
    figure: (o) => o.transactionFailRate,
    format: formatPercent,
    hint: (o) =>
      `${formatCount(o.failedTransactions)} of ${formatCount(o.attemptedTransactions)} sent reverted or failed (rejected by the user: not counted)`,
    change: { kind: 'points', better: 'down' },
  },
  {
    label: 'Daily Active Wallets',
    figure: (o) => o.dailyActiveWallets,
    format: average,
    hint: () => 'Wallets active on a day (local days), on average over the days of this period',
    change: { kind: 'relative', better: 'up' },
  },
  {
    label: 'Average TX/User/Day',
    figure: (o) => o.averageTransactionsPerUserPerDay,
    format: formatRatio,
    hint: () => 'Transactions per active user and day (local days)',
    change: { kind: 'relative', better: 'up' },
  },
  {
    label: 'Daily Active Wallets Trend',
    figure: (o) => o.dailyActiveWalletsTrend.change,
    format: formatTrend,
    hint: (o) =>
      o.dailyActiveWalletsTrend.change === null
        ? `No active wallets in ${previousPeriodText(o.dailyActiveWalletsTrend)} to compare with`
        : `Daily active wallets vs ${formatAverage(o.dailyActiveWalletsTrend.previous)} a day in ${previousPeriodText(o.dailyActiveWalletsTrend)}`,
  },
];

/** A tile's comparison; null while the previous period's figures load (or for the trend tile). */
export function tileComparison(
  tile: TileSpec,
  current: AnalyticsOverview,
  previous: AnalyticsOverview | undefined,
): Comparison | null {
  if (!tile.change || !previous) return null;
  return compare(tile.figure(current), tile.figure(previous), tile.change.kind);
}

/** "the day before, until 07:40 UTC" (the project's zone) or "the previous 30 days": what a comparison is made with. */
export function previousPeriodText({
  previousFrom,
  previousTo,
}: {
  previousFrom: string;
  previousTo: string;
}) {
  const fromMs = Date.parse(previousFrom);
  const toMs = Date.parse(previousTo);
  const days = Math.max(1, localDaysIn(fromMs, toMs, displayTimeZone()));
  if (startOfLocalDay(toMs, displayTimeZone()) !== toMs) {
    // A period still running is compared with the same hours of the one before (docs/analytics.md).
    const span = days <= 1 ? 'the day before' : `the ${days} days before`;
    return `${span}, until ${formatHourMinute(toMs)} ${zoneAbbreviation(toMs)}`;
  }
  return days === 1 ? 'the day before' : `the previous ${days} days`;
}

/** The tiles as a file: each figure raw, beside the previous period's and the change. */
export function overviewCsv(current: AnalyticsOverview, previous: AnalyticsOverview | undefined): CsvTable {
  return {
    header: [
      'tile',
      'value',
      'previous_value',
      'change',
      'change_unit',
      'from',
      'to',
      'previous_from',
      'previous_to',
    ],
    rows: TILES.map((tile) => {
      const comparison = tileComparison(tile, current, previous);
      const unit = tile.change ? (tile.change.kind === 'points' ? 'percentage_points' : 'ratio') : null;
      return [
        tile.label,
        tile.figure(current),
        tile.change && previous ? tile.figure(previous) : null,
        comparison?.hasChange ? comparison.change : null,
        comparison?.hasChange ? unit : null,
        current.from,
        current.to,
        previous?.from ?? current.dailyActiveWalletsTrend.previousFrom,
        previous?.to ?? current.dailyActiveWalletsTrend.previousTo,
      ];
    }),
  };
}
