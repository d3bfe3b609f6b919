import type { AnalyticsFilterKey, Share } from '@polyflow/contracts/analytics';
import { lazy, Suspense } from 'react';
import { ChartCard, ChartSkeleton } from '../../../components/ui/chart-card';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { formatPercent } from '../../../lib/format';
import type { AnalyticsRange } from '../api/analytics-keys';
import { type ShareQuery, useShares } from '../api/share-queries';
import { formatCount } from '../lib/format';
import { type ShareColumns, sharesCsv } from '../lib/share-csv';
import { otherLabel, SHARES_SHOWN, shareOf, splitTop, sumOf } from '../lib/top-n';
import { hasValues, stateOf } from './chart-state';
import type { Slice } from './charts/share-charts';
import { ShowAllButton } from './show-all-button';

// recharts is ~100 KB gzip: the share charts are their own chunk, fetched only when the Metrics tab shows.
const SharePie = lazy(() => import('./charts/share-charts').then((m) => ({ default: m.SharePie })));
const ShareBars = lazy(() => import('./charts/share-charts').then((m) => ({ default: m.ShareBars })));

const toSlices = (
  shares: Share[],
  nameOf: (key: string) => string = (key) => key,
  noKey = 'Unknown',
): Slice[] =>
  shares.map((share) => ({
    name: share.key === null ? noKey : nameOf(share.key),
    value: share.value,
    isUnknown: share.key === null,
    ...(share.key !== null && { filterValue: share.key }),
  }));

export interface ShareCardProps {
  name: ShareQuery;
  title: string;
  unit: string;
  columns: ShareColumns;
  range: AnalyticsRange;
  chart: 'pie' | 'bars';
  /** Says what is missing in this card's own words (wallets are not transactions). */
  emptyText: string;
  /** The filter a click on a slice sets (docs/analytics.md, "Filters"). */
  filterName: AnalyticsFilterKey;
}

/** A distribution chart: the first slices and "Other", Show all, and a CSV of every slice. */
export function ShareCard({
  name,
  title,
  unit,
  columns,
  range,
  chart,
  emptyText,
  filterName,
}: ShareCardProps) {
  const query = useShares(name, range);
  const all = query.data ?? [];
  const whole = sumOf(all, (share) => share.value);
  const { shown, rest } = splitTop(all, SHARES_SHOWN);
  const slices = toSlices(shown, columns.nameOf, columns.noKey);
  if (rest.length > 0) {
    slices.push({
      name: otherLabel(rest.length),
      value: sumOf(rest, (share) => share.value),
      isUnknown: false,
      isOther: true,
    });
  }
  const nameOf = (share: Share) =>
    share.key === null ? (columns.noKey ?? 'Unknown') : (columns.nameOf?.(share.key) ?? share.key);
  const Chart = chart === 'pie' ? SharePie : ShareBars;
  return (
    <ChartCard
      title={title}
      eyebrow={unit}
      {...stateOf(query)}
      isEmpty={!hasValues(query.data)}
      emptyText={emptyText}
      actions={
        <>
          {rest.length > 0 && (
            <ShowAllButton
              title={title}
              rows={all}
              keyOf={(share) => share.key ?? ''}
              note={`Shares of all ${whole.toLocaleString('en-US')} (${unit.toLowerCase()}) in the period.`}
              columns={[
                { header: columns.key.replace(/_/g, ' '), cell: nameOf },
                { header: unit, cell: (share) => formatCount(share.value), isNumber: true },
                {
                  header: 'Share',
                  cell: (share) => formatPercent(shareOf(share.value, whole)),
                  isNumber: true,
                },
              ]}
            />
          )}
          <DownloadCsvButton
            table={title}
            build={() => sharesCsv(all, columns)}
            disabled={!query.isSuccess}
          />
        </>
      }
    >
      <Suspense fallback={<ChartSkeleton />}>
        <Chart title={title} slices={slices} unit={unit} filterName={filterName} />
      </Suspense>
    </ChartCard>
  );
}
