import type { AnalyticsOverview } from '@polyflow/contracts/analytics';
import { RotateCw } from 'lucide-react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { StatTile } from '../../../components/ui/stat-tile';
import type { AnalyticsRange } from '../api/analytics-keys';
import { useOverview } from '../api/get-overview';
import { formatAverage, formatCount, formatPercent, formatRatio, formatTrend } from '../lib/format';

interface TileSpec {
  label: string;
  value: (overview: AnalyticsOverview) => string;
  hint: (overview: AnalyticsOverview) => string;
}

const DAY_MS = 86_400_000;
const hourMinute = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** "yesterday until 07:40 UTC" or "the previous 30 days": what the trend compares with. */
function previousPeriodText({
  previousFrom,
  previousTo,
}: AnalyticsOverview['dailyActiveWalletsTrend']): string {
  const fromMs = Date.parse(previousFrom);
  const toMs = Date.parse(previousTo);
  const days = Math.ceil((toMs - fromMs) / DAY_MS);
  if (toMs % DAY_MS !== 0) {
    // A period still running is compared with the same hours of the one before (docs/analytics.md).
    const span = days <= 1 ? 'the day before' : `the ${days} days before`;
    return `${span}, until ${hourMinute.format(toMs)} UTC`;
  }
  return days === 1 ? 'the day before' : `the previous ${days} days`;
}

/**
 * The seven tiles of the spec, in its order. Each says in words what it counts, so that a figure can be
 * checked at a glance; the definitions are docs/analytics.md's.
 */
const TILES: TileSpec[] = [
  {
    label: 'Total Transactions',
    value: (o) => formatCount(o.totalTransactions),
    hint: (o) =>
      `Requested in this period, any outcome; ${formatCount(o.submittedTransactions)} reached the chain`,
  },
  {
    label: 'Unique Wallets',
    value: (o) => formatCount(o.connectedWallets),
    hint: () => 'Wallets that connected in this period',
  },
  {
    label: 'New Wallets Connected',
    value: (o) => formatCount(o.newWallets),
    hint: () => 'Of those, first seen in this period',
  },
  {
    label: 'Transaction Fail Rate',
    value: (o) => formatPercent(o.transactionFailRate),
    hint: (o) =>
      `${formatCount(o.failedTransactions)} of ${formatCount(o.attemptedTransactions)} sent reverted or failed (rejected by the user: not counted)`,
  },
  {
    label: 'Daily Active Wallets',
    value: (o) => formatAverage(o.dailyActiveWallets),
    hint: () => 'Wallets active on a UTC day, on average over the days of this period',
  },
  {
    label: 'Average TX/User/Day',
    value: (o) => formatRatio(o.averageTransactionsPerUserPerDay),
    hint: () => 'Transactions per active user and UTC day',
  },
  {
    label: 'Daily Active Wallets Trend',
    value: (o) => formatTrend(o.dailyActiveWalletsTrend.change),
    hint: (o) =>
      o.dailyActiveWalletsTrend.change === null
        ? `No active wallets in ${previousPeriodText(o.dailyActiveWalletsTrend)} to compare with`
        : `Daily active wallets vs ${formatAverage(o.dailyActiveWalletsTrend.previous)} a day in ${previousPeriodText(o.dailyActiveWalletsTrend)}`,
  },
];

/**
 * Every tile reads the one overview request: each shows its loading placeholder while it runs and
 * drops it on completion or on error (spec §4), when a dash and a retry replace the figures.
 */
export function OverviewTiles({ range }: { range: AnalyticsRange }) {
  const overview = useOverview(range);
  const data = overview.data;
  return (
    <div className="flex flex-col gap-3">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-4 2xl:grid-cols-7">
        {TILES.map((tile) => (
          <StatTile
            key={tile.label}
            label={tile.label}
            isLoading={overview.isPending}
            isError={overview.isError}
            value={data ? tile.value(data) : ''}
            hint={data ? tile.hint(data) : ' '}
          />
        ))}
      </dl>
      {overview.isError && (
        <Alert tone="error">
          Could not load the overview: {overview.error.message}{' '}
          <Button size="sm" variant="secondary" onClick={() => overview.refetch()}>
            <RotateCw aria-hidden="true" className="size-3.5" /> Retry
          </Button>
        </Alert>
      )}
    </div>
  );
}
