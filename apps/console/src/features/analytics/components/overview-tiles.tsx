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

/** The seven tiles of the spec, in its order; definitions in docs/analytics.md. */
const TILES: TileSpec[] = [
  {
    label: 'Total Transactions',
    value: (o) => formatCount(o.totalTransactions),
    hint: (o) => `${formatCount(o.submittedTransactions)} submitted`,
  },
  {
    label: 'Unique Wallets',
    value: (o) => formatCount(o.connectedWallets),
    hint: () => 'Connected in this period',
  },
  {
    label: 'New Wallets Connected',
    value: (o) => formatCount(o.newWallets),
    hint: () => 'Never seen before this period',
  },
  {
    label: 'Transaction Fail Rate',
    value: (o) => formatPercent(o.transactionFailRate),
    hint: (o) => `${formatCount(o.failedTransactions)} reverted or failed`,
  },
  {
    label: 'Daily Active Wallets',
    value: (o) => formatAverage(o.dailyActiveWallets),
    hint: () => 'Average per UTC day',
  },
  {
    label: 'Average TX/User/Day',
    value: (o) => formatRatio(o.averageTransactionsPerUserPerDay),
    hint: () => 'Transactions per active user',
  },
  {
    label: 'Daily Active Wallets Trend',
    value: (o) => formatTrend(o.dailyActiveWalletsTrend.change),
    hint: (o) =>
      o.dailyActiveWalletsTrend.change === null
        ? 'No active wallets in the previous period'
        : `vs ${formatAverage(o.dailyActiveWalletsTrend.previous)} a day in the previous period`,
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
