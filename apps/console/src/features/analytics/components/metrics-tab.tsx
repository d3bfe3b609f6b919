import type { Share } from '@polyflow/contracts/analytics';
import { lazy, Suspense, useState } from 'react';
import { ChartCard, ChartSkeleton, type ChartStatus } from '../../../components/ui/chart-card';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { PreviousPeriodToggle } from '../../../components/ui/previous-period-toggle';
import { countryName } from '../../../lib/format';
import type { AnalyticsRange } from '../api/analytics-keys';
import { useAverageGasPrice } from '../api/get-average-gas-price';
import { useContractFunctions } from '../api/get-contract-functions';
import { useFailedTransactions } from '../api/get-failed-transactions';
import { type ShareQuery, useShares } from '../api/get-shares';
import { useTopPages } from '../api/get-top-pages';
import { useTopReferrers } from '../api/get-top-referrers';
import { weiToGwei } from '../lib/format';
import { alignPrevious, type Bucket, seriesCsv } from '../lib/series-comparison';
import {
  contractFunctionsCsv,
  type ShareColumns,
  sharesCsv,
  topPagesCsv,
  topReferrersCsv,
} from '../lib/share-csv';
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

const inGwei = (buckets: readonly Bucket[] | undefined) =>
  buckets?.map((bucket) => ({ ...bucket, value: bucket.value === null ? null : weiToGwei(bucket.value) }));

type SeriesRange = AnalyticsRange & { granularity: string };

export function MetricsTab({ range, granularity }: { range: AnalyticsRange; granularity: string }) {
  const series = { ...range, granularity };
  const functions = useContractFunctions(range);
  const pages = useTopPages(range);
  const referrers = useTopReferrers(range);

  return (
    <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
      <GasPriceCard series={series} />
      <ChartCard
        title="Most executed contract functions"
        eyebrow="Submitted transactions"
        {...stateOf(functions)}
        isEmpty={(functions.data ?? []).length === 0}
        emptyText="No contract calls in this period"
        actions={
          <DownloadCsvButton
            table="Most executed contract functions"
            build={() => contractFunctionsCsv(functions.data ?? [])}
            disabled={!functions.isSuccess}
          />
        }
      >
        <ContractFunctionsTable rows={functions.data ?? []} />
      </ChartCard>
      <ShareCard
        name="walletProviders"
        title="Wallet providers"
        unit="Connected wallets"
        columns={{ key: 'wallet_provider', value: 'connected_wallets' }}
        range={range}
        chart="pie"
        emptyText="No wallet connected in this period"
      />
      <FailedTransactionsCard series={series} />
      <ShareCard
        name="countries"
        title="Countries"
        unit="Users"
        columns={{ key: 'country', value: 'users', nameOf: countryName }}
        range={range}
        chart="bars"
        emptyText="No visitors in this period"
      />
      <ShareCard
        name="browsers"
        title="Browsers"
        unit="Users"
        columns={{ key: 'browser', value: 'users' }}
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
        actions={
          <DownloadCsvButton
            table="Top pages"
            build={() => topPagesCsv(pages.data ?? [])}
            disabled={!pages.isSuccess}
          />
        }
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
        actions={
          <DownloadCsvButton
            table="Top referrers"
            build={() => topReferrersCsv(referrers.data ?? [])}
            disabled={!referrers.isSuccess}
          />
        }
      >
        <TopReferrersTable rows={referrers.data ?? []} />
      </ChartCard>
    </div>
  );
}

function GasPriceCard({ series }: { series: SeriesRange }) {
  const title = 'Average gas price paid';
  // The previous period's series is asked only once the overlay is switched on.
  const [isOverlayOn, setOverlayOn] = useState(false);
  const gas = useAverageGasPrice(series);
  const previous = useAverageGasPrice(series, { previous: true, enabled: isOverlayOn });
  const showPrevious = isOverlayOn && previous.isSuccess;
  const points = alignPrevious(inGwei(gas.data) ?? [], showPrevious ? inGwei(previous.data) : undefined);
  return (
    <ChartCard
      title={title}
      eyebrow="gwei · effective price of mined transactions"
      {...stateOf(gas)}
      isEmpty={!hasValues(gas.data) && !(showPrevious && hasValues(previous.data))}
      emptyText="No mined transactions in this period"
      actions={
        <>
          <PreviousPeriodToggle chart={title} isOn={isOverlayOn} onChange={setOverlayOn} />
          <DownloadCsvButton
            table={title}
            build={() => seriesCsv(points, 'average_gas_price_gwei', showPrevious)}
            disabled={!gas.isSuccess || (isOverlayOn && !previous.isSuccess)}
          />
        </>
      }
    >
      <Suspense fallback={<ChartSkeleton />}>
        <GasPriceChart points={points} granularity={series.granularity} showPrevious={showPrevious} />
      </Suspense>
    </ChartCard>
  );
}

function FailedTransactionsCard({ series }: { series: SeriesRange }) {
  const title = 'Failed transactions';
  // The previous period's series is asked only once the overlay is switched on.
  const [isOverlayOn, setOverlayOn] = useState(false);
  const failed = useFailedTransactions(series);
  const previous = useFailedTransactions(series, { previous: true, enabled: isOverlayOn });
  const showPrevious = isOverlayOn && previous.isSuccess;
  const points = alignPrevious(failed.data ?? [], showPrevious ? previous.data : undefined);
  return (
    <ChartCard
      title={title}
      eyebrow="Reverted or failed, by time requested"
      {...stateOf(failed)}
      isEmpty={!hasValues(failed.data) && !(showPrevious && hasValues(previous.data))}
      emptyText="No failed transactions in this period"
      actions={
        <>
          <PreviousPeriodToggle chart={title} isOn={isOverlayOn} onChange={setOverlayOn} />
          <DownloadCsvButton
            table={title}
            build={() => seriesCsv(points, 'failed_transactions', showPrevious)}
            disabled={!failed.isSuccess || (isOverlayOn && !previous.isSuccess)}
          />
        </>
      }
    >
      <Suspense fallback={<ChartSkeleton />}>
        <FailedTransactionsChart
          points={points}
          granularity={series.granularity}
          showPrevious={showPrevious}
        />
      </Suspense>
    </ChartCard>
  );
}

interface ShareCardProps {
  name: ShareQuery;
  title: string;
  unit: string;
  columns: ShareColumns;
  range: AnalyticsRange;
  chart: 'pie' | 'bars';
  /** Says what is missing in this card's own words (wallets are not transactions). */
  emptyText: string;
}

function ShareCard({ name, title, unit, columns, range, chart, emptyText }: ShareCardProps) {
  const query = useShares(name, range);
  const slices = toSlices(query.data ?? [], columns.nameOf);
  const Chart = chart === 'pie' ? SharePie : ShareBars;
  return (
    <ChartCard
      title={title}
      eyebrow={unit}
      {...stateOf(query)}
      isEmpty={!hasValues(query.data)}
      emptyText={emptyText}
      actions={
        <DownloadCsvButton
          table={title}
          build={() => sharesCsv(query.data ?? [], columns)}
          disabled={!query.isSuccess}
        />
      }
    >
      <Suspense fallback={<ChartSkeleton />}>
        <Chart slices={slices} unit={unit} />
      </Suspense>
    </ChartCard>
  );
}
