import type { Share } from '@polyflow/contracts/analytics';
import { lazy, Suspense } from 'react';
import { ChartCard, ChartSkeleton, type ChartStatus } from '../../../components/ui/chart-card';
import type { AnalyticsRange } from '../api/analytics-keys';
import { useAverageGasPrice } from '../api/get-average-gas-price';
import { useContractFunctions } from '../api/get-contract-functions';
import { useFailedTransactions } from '../api/get-failed-transactions';
import { type ShareQuery, useShares } from '../api/get-shares';
import { useTopPages } from '../api/get-top-pages';
import { useTopReferrers } from '../api/get-top-referrers';
import { countryName } from '../lib/format';
import type { Slice } from './charts/share-charts';
import { ContractFunctionsTable } from './contract-functions-table';
import { TopPagesTable, TopReferrersTable } from './top-pages-and-referrers';

// recharts is ~100 KB gzip: each chart group is its own chunk, fetched only when the Metrics tab shows.
const GasPriceChart = lazy(() =>
  import('./charts/time-series-charts').then((m) => ({ default: m.GasPriceChart })),
);
const FailedTransactionsChart = lazy(() =>
  import('./charts/time-series-charts').then((m) => ({ default: m.FailedTransactionsChart })),
);
const SharePie = lazy(() => import('./charts/share-charts').then((m) => ({ default: m.SharePie })));
const ShareBars = lazy(() => import('./charts/share-charts').then((m) => ({ default: m.ShareBars })));

interface QueryState {
  status: ChartStatus;
  error: Error | null;
  refetch: () => unknown;
}

/** The ChartCard props every chart derives from its query. */
const stateOf = (query: QueryState) => ({
  status: query.status,
  errorText: query.error ? `Could not load this chart: ${query.error.message}` : undefined,
  onRetry: () => void query.refetch(),
});

const toSlices = (shares: Share[], nameOf: (key: string) => string = (key) => key): Slice[] =>
  shares.map((share) => ({
    name: share.key === null ? 'Unknown' : nameOf(share.key),
    value: share.value,
    isUnknown: share.key === null,
  }));

const hasValues = (values: Array<{ value: number | null }> | undefined) =>
  (values ?? []).some((point) => point.value !== null && point.value > 0);

export function MetricsTab({ range, granularity }: { range: AnalyticsRange; granularity: string }) {
  const series = { ...range, granularity };
  const gas = useAverageGasPrice(series);
  const failed = useFailedTransactions(series);
  const functions = useContractFunctions(range);
  const pages = useTopPages(range);
  const referrers = useTopReferrers(range);

  return (
    <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
      <ChartCard
        title="Average gas price paid"
        eyebrow="gwei · effective price of mined transactions"
        {...stateOf(gas)}
        isEmpty={!hasValues(gas.data)}
        emptyText="No mined transactions in this period"
      >
        <Suspense fallback={<ChartSkeleton />}>
          <GasPriceChart buckets={gas.data ?? []} granularity={granularity} />
        </Suspense>
      </ChartCard>
      <ChartCard
        title="Most executed contract functions"
        eyebrow="Submitted transactions"
        {...stateOf(functions)}
        isEmpty={(functions.data ?? []).length === 0}
        emptyText="No contract calls in this period"
      >
        <ContractFunctionsTable rows={functions.data ?? []} />
      </ChartCard>
      <ShareCard
        name="walletProviders"
        title="Wallet providers"
        unit="Connected wallets"
        range={range}
        chart="pie"
        emptyText="No wallet connected in this period"
      />
      <ChartCard
        title="Failed transactions"
        eyebrow="Reverted or failed, by time requested"
        {...stateOf(failed)}
        isEmpty={!hasValues(failed.data)}
        emptyText="No failed transactions in this period"
      >
        <Suspense fallback={<ChartSkeleton />}>
          <FailedTransactionsChart buckets={failed.data ?? []} granularity={granularity} />
        </Suspense>
      </ChartCard>
      <ShareCard
        name="countries"
        title="Countries"
        unit="Users"
        range={range}
        chart="bars"
        emptyText="No visitors in this period"
      />
      <ShareCard
        name="browsers"
        title="Browsers"
        unit="Users"
        range={range}
        chart="pie"
        emptyText="No visitors in this period"
      />
      <ChartCard
        title="Top pages"
        eyebrow="Users · wallets connected · transactions started"
        {...stateOf(pages)}
        isEmpty={(pages.data ?? []).length === 0}
        emptyText="No page views in this period"
        heightClass="min-h-64"
      >
        <TopPagesTable rows={pages.data ?? []} />
      </ChartCard>
      <ChartCard
        title="Top referrers"
        eyebrow="Where visits came from"
        {...stateOf(referrers)}
        isEmpty={(referrers.data ?? []).length === 0}
        emptyText="No visits in this period"
        heightClass="min-h-64"
      >
        <TopReferrersTable rows={referrers.data ?? []} />
      </ChartCard>
    </div>
  );
}

interface ShareCardProps {
  name: ShareQuery;
  title: string;
  unit: string;
  range: AnalyticsRange;
  chart: 'pie' | 'bars';
  /** Says what is missing in this card's own words (wallets are not transactions). */
  emptyText: string;
}

function ShareCard({ name, title, unit, range, chart, emptyText }: ShareCardProps) {
  const query = useShares(name, range);
  const slices = toSlices(query.data ?? [], name === 'countries' ? countryName : undefined);
  const Chart = chart === 'pie' ? SharePie : ShareBars;
  return (
    <ChartCard
      title={title}
      eyebrow={unit}
      {...stateOf(query)}
      isEmpty={!hasValues(query.data)}
      emptyText={emptyText}
    >
      <Suspense fallback={<ChartSkeleton />}>
        <Chart slices={slices} unit={unit} />
      </Suspense>
    </ChartCard>
  );
}
