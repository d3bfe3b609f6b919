import type { PageRow, ReferrerRow } from '@polyflow/contracts/analytics';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { ChartAnnotations } from '../../../components/ui/chart-annotations';
import { ChartCard, ChartSkeleton } from '../../../components/ui/chart-card';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { PreviousPeriodToggle } from '../../../components/ui/previous-period-toggle';
import { useAnnotations } from '../../../lib/annotations';
import { countryName, formatPercent, shortenAddress } from '../../../lib/format';
import type { AnalyticsRange } from '../api/analytics-keys';
import { useAverageGasPrice } from '../api/get-average-gas-price';
import { CONTRACT_FUNCTIONS_LIMIT, useContractFunctions } from '../api/get-contract-functions';
import { useFailedTransactions } from '../api/get-failed-transactions';
import { TOP_PAGES_LIMIT, useTopPages } from '../api/get-top-pages';
import { TOP_REFERRERS_LIMIT, useTopReferrers } from '../api/get-top-referrers';
import { chainLabel } from '../lib/chains';
import { deviceName, formatCount, formatGwei, weiToGwei } from '../lib/format';
import { alignPrevious, type Bucket, seriesCsv } from '../lib/series-comparison';
import { seriesSummary } from '../lib/series-summary';
import { contractFunctionsCsv, DIRECT_REFERRER, topPagesCsv, topReferrersCsv } from '../lib/share-csv';
import { shareOf, splitTop, sumOf, TABLE_ROWS_SHOWN } from '../lib/top-n';
import { hasValues, stateOf } from './chart-state';
import { ContractFunctionsTable } from './contract-functions-table';
import { GoalsCard } from './goals-card';
import { SeriesTable } from './series-table';
import { ShareCard } from './share-card';
import { ShowAllButton } from './show-all-button';
import { TopPagesTable, TopReferrersTable } from './top-pages-and-referrers';

// recharts is ~100 KB gzip: each chart group is its own chunk, fetched only when the Metrics tab shows.
const GasPriceChart = lazy(() =>
  import('./charts/time-series-charts').then((m) => ({ default: m.GasPriceChart })),
);
const FailedTransactionsChart = lazy(() =>
  import('./charts/time-series-charts').then((m) => ({ default: m.FailedTransactionsChart })),
);

const inGwei = (buckets: readonly Bucket[] | undefined) =>
  buckets?.map((bucket) => ({ ...bucket, value: bucket.value === null ? null : weiToGwei(bucket.value) }));

type SeriesRange = AnalyticsRange & { granularity: string };

/** Says so when the server's cap was reached: there may be more rows than Show all lists. */
const cappedNote = (rows: readonly unknown[] | undefined, limit: number) =>
  (rows?.length ?? 0) >= limit ? ` (the first ${limit}; the server lists no more)` : '';

interface CountsRow {
  users: number;
  wallets: number;
  transactions: number;
}

function countsColumns<Row extends CountsRow>(
  header: string,
  labelOf: (row: Row) => string,
  rows: readonly Row[],
) {
  const whole = sumOf(rows, (row) => row.users);
  return [
    { header, cell: labelOf },
    { header: 'Users', cell: (row: Row) => formatCount(row.users), isNumber: true },
    {
      header: 'Share',
      cell: (row: Row) => formatPercent(shareOf(row.users, whole)),
      isNumber: true,
    },
    { header: 'Wallets', cell: (row: Row) => formatCount(row.wallets), isNumber: true },
    { header: 'TXs', cell: (row: Row) => formatCount(row.transactions), isNumber: true },
  ];
}

interface MetricsTabProps {
  range: AnalyticsRange;
  granularity: string;
  /** Cards the console composes in from other features: first (full width), and beside the gas chart. */
  leading?: ReactNode;
  besideGas?: ReactNode;
  /** Whether the caller may add and delete goals (the Goals card's "Manage goals"). */
  canManageGoals?: boolean;
}

export function MetricsTab({
  range,
  granularity,
  leading,
  besideGas,
  canManageGoals = false,
}: MetricsTabProps) {
  const series = { ...range, granularity };
  const functions = useContractFunctions(range);
  const pages = useTopPages(range);
  const referrers = useTopReferrers(range);
  const topFunctions = splitTop(functions.data ?? [], TABLE_ROWS_SHOWN);
  const topPages = splitTop(pages.data ?? [], TABLE_ROWS_SHOWN);
  const topReferrers = splitTop(referrers.data ?? [], TABLE_ROWS_SHOWN);
  const allCalls = sumOf(functions.data ?? [], (row) => row.calls);

  return (
    <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
      <GoalsCard range={range} canManage={canManageGoals} />
      {leading}
      <GasPriceCard series={series} />
      {besideGas}
      <ChartCard
        title="Most executed contract functions"
        eyebrow="Submitted transactions"
        {...stateOf(functions)}
        isEmpty={(functions.data ?? []).length === 0}
        emptyText="No contract calls in this period"
        actions={
          <>
            {topFunctions.rest.length > 0 && (
              <ShowAllButton
                title="Most executed contract functions"
                rows={functions.data ?? []}
                keyOf={(row) => `${row.chainId}-${row.contract}-${row.selector}`}
                note={`Shares of all ${allCalls.toLocaleString('en-US')} calls of the functions listed${cappedNote(functions.data, CONTRACT_FUNCTIONS_LIMIT)}.`}
                columns={[
                  {
                    header: 'Contract',
                    cell: (row) => `${shortenAddress(row.contract)} ${chainLabel(row.chainId, false)}`,
                  },
                  {
                    header: 'Function',
                    cell: (row) => row.functionName?.replace(/\(.*$/, '') ?? row.selector,
                  },
                  { header: 'Calls', cell: (row) => formatCount(row.calls), isNumber: true },
                  {
                    header: 'Share',
                    cell: (row) => formatPercent(shareOf(row.calls, allCalls)),
                    isNumber: true,
                  },
                ]}
              />
            )}
            <DownloadCsvButton
              table="Most executed contract functions"
              build={() => contractFunctionsCsv(functions.data ?? [])}
              disabled={!functions.isSuccess}
            />
          </>
        }
      >
        <ContractFunctionsTable rows={topFunctions.shown} rest={topFunctions.rest} />
      </ChartCard>
      <ShareCard
        name="walletProviders"
        title="Wallet providers"
        unit="Connected wallets"
        columns={{ key: 'wallet_provider', value: 'connected_wallets' }}
        range={range}
        chart="pie"
        filterName="walletProviders"
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
        filterName="countries"
        emptyText="No visitors in this period"
      />
      <ShareCard
        name="browsers"
        title="Browsers"
        unit="Users"
        columns={{ key: 'browser', value: 'users' }}
        range={range}
        chart="pie"
        filterName="browsers"
        emptyText="No visitors in this period"
      />
      <ShareCard
        name="operatingSystems"
        title="Operating systems"
        unit="Users"
        columns={{ key: 'os', value: 'users' }}
        range={range}
        chart="pie"
        filterName="oses"
        emptyText="No visitors in this period"
      />
      <ShareCard
        name="devices"
        title="Devices"
        unit="Users"
        columns={{ key: 'device', value: 'users', nameOf: deviceName }}
        range={range}
        chart="pie"
        filterName="devices"
        emptyText="No visitors in this period"
      />
      <ShareCard
        name="sources"
        title="Sources"
        unit="Users"
        columns={{ key: 'utm_source', value: 'users', noKey: 'No UTM source' }}
        range={range}
        chart="bars"
        filterName="sources"
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
          <>
            {topPages.rest.length > 0 && (
              <ShowAllButton
                title="Top pages"
                rows={pages.data ?? []}
                keyOf={(row) => row.path}
                note={`Users who viewed each page, and their share of the users of every page listed (a user who viewed two pages counts in both)${cappedNote(pages.data, TOP_PAGES_LIMIT)}.`}
                columns={countsColumns('Page', (row: PageRow) => row.path, pages.data ?? [])}
              />
            )}
            <DownloadCsvButton
              table="Top pages"
              build={() => topPagesCsv(pages.data ?? [])}
              disabled={!pages.isSuccess}
            />
          </>
        }
      >
        <TopPagesTable rows={topPages.shown} rest={topPages.rest} />
      </ChartCard>
      <ChartCard
        title="Top referrers"
        eyebrow="Where visits came from"
        {...stateOf(referrers)}
        isEmpty={(referrers.data ?? []).length === 0}
        emptyText="No visits in this period"
        heightClass="min-h-64"
        actions={
          <>
            {topReferrers.rest.length > 0 && (
              <ShowAllButton
                title="Top referrers"
                rows={referrers.data ?? []}
                keyOf={(row) => row.domain ?? ''}
                note={`Users whose visit came from each domain, and their share of the users of every referrer listed${cappedNote(referrers.data, TOP_REFERRERS_LIMIT)}.`}
                columns={countsColumns(
                  'Referrer',
                  (row: ReferrerRow) => row.domain ?? DIRECT_REFERRER,
                  referrers.data ?? [],
                )}
              />
            )}
            <DownloadCsvButton
              table="Top referrers"
              build={() => topReferrersCsv(referrers.data ?? [])}
              disabled={!referrers.isSuccess}
            />
          </>
        }
      >
        <TopReferrersTable rows={topReferrers.shown} rest={topReferrers.rest} />
      </ChartCard>
    </div>
  );
}

function GasPriceCard({ series }: { series: SeriesRange }) {
  const title = 'Average gas price paid';
  // The previous period's series is asked only once the overlay is switched on.
  const [isOverlayOn, setOverlayOn] = useState(false);
  const gas = useAverageGasPrice(series);
  const annotations = useAnnotations(series.projectId);
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
        <GasPriceChart
          label={`${title}: ${seriesSummary(points, { granularity: series.granularity, kind: 'range', format: formatGwei })}`}
          points={points}
          granularity={series.granularity}
          showPrevious={showPrevious}
        />
      </Suspense>
      {/* Flags under the plot area: the y axis is 56 px wide, the right margin 12 (time-series-charts). */}
      <ChartAnnotations annotations={annotations.data ?? []} buckets={points} plotLeft={56} plotRight={12} />
      <SeriesTable
        title={title}
        points={points}
        valueHeader="Average gas price"
        format={formatGwei}
        showPrevious={showPrevious}
      />
    </ChartCard>
  );
}

function FailedTransactionsCard({ series }: { series: SeriesRange }) {
  const title = 'Failed transactions';
  // The previous period's series is asked only once the overlay is switched on.
  const [isOverlayOn, setOverlayOn] = useState(false);
  const failed = useFailedTransactions(series);
  const annotations = useAnnotations(series.projectId);
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
          label={`${title}: ${seriesSummary(points, { granularity: series.granularity, kind: 'sum', format: formatCount })}`}
          points={points}
          granularity={series.granularity}
          showPrevious={showPrevious}
        />
      </Suspense>
      {/* The y axis is 40 px wide here. */}
      <ChartAnnotations annotations={annotations.data ?? []} buckets={points} plotLeft={40} plotRight={12} />
      <SeriesTable
        title={title}
        points={points}
        valueHeader="Failed transactions"
        format={(value) => (value === null ? '—' : formatCount(value))}
        showPrevious={showPrevious}
      />
    </ChartCard>
  );
}
