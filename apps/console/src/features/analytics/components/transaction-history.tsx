import { hasAnalyticsFilters, type TransactionRow } from '@polyflow/contracts/analytics';
import { Fragment, useEffect, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ChartSkeleton } from '../../../components/ui/chart-card';
import { useCsvFileName } from '../../../components/ui/download-csv-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Download, History, RotateCw, Search } from '../../../components/ui/icons';
import { WalletLink } from '../../../components/wallet-link';
import { announce, focusSoon } from '../../../lib/announce';
import { countryName, displayTimeZone, shortenAddress } from '../../../lib/format';
import { saveFile } from '../../../lib/save-file';
import type { AnalyticsRange } from '../api/analytics-keys';
import { useDownloadTransactions } from '../api/download-transactions';
import { useTransactionHistory } from '../api/get-transaction-history';
import { formatDayHeading, formatTimeOfDay, localDayOf, NOT_AVAILABLE } from '../lib/format';
import { type HistoryFilter, isHistoryFiltered, NO_HISTORY_FILTER } from '../lib/history-filter';
import { useHistoryFilter } from '../lib/use-history-filter';
import { HistoryFilters } from './history-filters';
import { StatusBadge, TransactionDetailsModal } from './transaction-details-modal';

/** Rows (newest first) split into runs of the same local day (the project's zone). */
export function groupByLocalDay(rows: TransactionRow[]): Array<{ day: string; rows: TransactionRow[] }> {
  const groups: Array<{ day: string; rows: TransactionRow[] }> = [];
  for (const row of rows) {
    const day = localDayOf(row.time);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.rows.push(row);
    else groups.push({ day, rows: [row] });
  }
  return groups;
}

const COLUMNS = ['Hash', 'Time', 'Wallet', 'Type', 'Status', 'Country', 'Browser'] as const;

export function TransactionHistory({ range }: { range: AnalyticsRange }) {
  const [filter, changeFilter] = useHistoryFilter();
  return (
    <div className="flex flex-col gap-4">
      <HistoryFilters range={range} filter={filter} onChange={changeFilter} />
      <HistoryResults range={range} filter={filter} onClear={() => changeFilter(NO_HISTORY_FILTER)} />
    </div>
  );
}

function HistoryResults({
  range,
  filter,
  onClear,
}: {
  range: AnalyticsRange;
  filter: HistoryFilter;
  onClear: () => void;
}) {
  const history = useTransactionHistory(range, filter);
  const download = useDownloadTransactions();
  const fileName = useCsvFileName('Transaction History');
  const [inspected, setInspected] = useState<TransactionRow | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  // A new search's answer is said once it replaces the previous rows (the page's one live region).
  const searchKey = JSON.stringify([range, filter]);
  const announcedKey = useRef(searchKey);
  const answer = history.data && !history.isPlaceholderData ? history.data.pages.at(-1)?.total : undefined;
  useEffect(() => {
    if (answer === undefined || announcedKey.current === searchKey) return;
    announcedKey.current = searchKey;
    announce(`${answer.toLocaleString('en-US')} ${answer === 1 ? 'transaction' : 'transactions'} found`);
  }, [answer, searchKey]);

  if (history.isPending) return <ChartSkeleton heightClass="h-72" />;
  if (history.isError) {
    return (
      <Alert tone="error">
        Could not load the transaction history: {history.error.message}{' '}
        <Button size="sm" variant="secondary" onClick={() => history.refetch()}>
          <RotateCw aria-hidden="true" className="size-3.5" /> Retry
        </Button>
      </Alert>
    );
  }
  const rows = history.data.pages.flatMap((page) => page.rows);
  // Every page answers the total of what the filter keeps; the latest page's is the freshest.
  const total = history.data.pages.at(-1)?.total ?? rows.length;
  // The screen's filters (the chips) narrow the history too: its count then says "matching".
  const isSearched = isHistoryFiltered(filter);
  const isFiltered = isSearched || hasAnalyticsFilters(range.filters);
  if (rows.length === 0) {
    return isFiltered ? (
      <EmptyState
        icon={<History aria-hidden="true" className="size-6" />}
        title="No transactions match this search and these filters"
      >
        <p>Try another hash or wallet, another period, or fewer filters.</p>
        {isSearched && (
          <Button variant="secondary" className="mt-3" onClick={onClear}>
            Clear search and filters
          </Button>
        )}
      </EmptyState>
    ) : (
      <EmptyState
        icon={<History aria-hidden="true" className="size-6" />}
        title="No transactions in this period"
      />
    );
  }

  // Load more stays focusable while it loads (Button's pending state); once the last page is in, it is
  // gone, so focus goes to the first row it brought (WCAG 2.4.3). The count is said either way.
  const loadMore = async () => {
    const before = rows.length;
    const result = await history.fetchNextPage();
    if (result.isError || !result.data) return;
    const all = result.data.pages.flatMap((page) => page.rows);
    const latestTotal = result.data.pages.at(-1)?.total ?? all.length;
    const first = all[before];
    announce(
      `${(all.length - before).toLocaleString('en-US')} more loaded, ${all.length.toLocaleString('en-US')} of ${latestTotal.toLocaleString('en-US')}`,
    );
    if (!result.hasNextPage && first) {
      const label = inspectLabel(first);
      focusSoon(() =>
        [...(listRef.current?.querySelectorAll<HTMLElement>('button[aria-label]') ?? [])].find(
          (button) => button.getAttribute('aria-label') === label,
        ),
      );
    }
  };

  const saveAll = () => download.mutate({ range, filter }, { onSuccess: (blob) => saveFile(fileName, blob) });

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-slate-600" data-testid="history-count">
          {/* While another search or filter is asked, the rows shown are the previous answer's. */}
          {history.isPlaceholderData ? (
            'Searching…'
          ) : (
            <>
              Newest first. Dates and times are in {displayTimeZone()}. {rows.length.toLocaleString('en-US')}{' '}
              of {total.toLocaleString('en-US')} {total === 1 ? 'transaction' : 'transactions'}
              {isFiltered ? ' matching' : ''} loaded
              {history.hasNextPage ? ' (Load more for older ones)' : ''}.
            </>
          )}
        </p>
        <Button
          variant="ghost"
          size="sm"
          isLoading={download.isPending}
          aria-label="Download CSV: Transaction History (every matching transaction)"
          title={`Download all ${total.toLocaleString('en-US')} ${isFiltered ? 'matching ' : ''}transactions as CSV`}
          onClick={saveAll}
          className="shrink-0 px-2"
        >
          <Download aria-hidden="true" className="size-3.5" />
          <span>
            <span className="max-sm:sr-only">Download </span>CSV
          </span>
        </Button>
      </div>
      {download.isError && (
        <Alert tone="error">Could not download the transactions: {download.error.message}</Alert>
      )}
      {/* On a phone each transaction is a card of label/value pairs (labels from CSS, one table for screen
          readers); from `sm` up a table. `relative` keeps the sr-only header inside the scroll area. */}
      <div ref={listRef} className="relative sm:overflow-x-auto">
        <table className="w-full text-left text-sm max-sm:block md:min-w-[40rem]">
          <thead className="max-sm:sr-only">
            <tr className="bg-indigo-50 text-[0.7rem] uppercase tracking-wide text-indigo-800">
              {COLUMNS.map((column) => (
                <th key={column} scope="col" className="px-3 py-2 font-semibold first:rounded-l-lg">
                  {column}
                </th>
              ))}
              <th scope="col" className="rounded-r-lg px-3 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="max-sm:block">
            {groupByLocalDay(rows).map((group) => (
              <Fragment key={group.day}>
                <tr className="max-sm:block">
                  <th
                    scope="rowgroup"
                    colSpan={COLUMNS.length + 1}
                    className="px-3 pt-4 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500 max-sm:block"
                  >
                    <time dateTime={group.day}>
                      {formatDayHeading(group.rows[0]?.time ?? `${group.day}T12:00:00Z`)}
                    </time>
                  </th>
                </tr>
                {group.rows.map((row) => (
                  <HistoryRow key={row.id} row={row} onInspect={() => setInspected(row)} />
                ))}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
      {history.hasNextPage && (
        <div className="flex justify-center">
          <Button variant="secondary" isLoading={history.isFetchingNextPage} onClick={() => void loadMore()}>
            Load more
          </Button>
        </div>
      )}
      {history.isFetchNextPageError && (
        <Alert tone="error">Could not load more transactions. Try again.</Alert>
      )}
      <TransactionDetailsModal
        projectId={range.projectId}
        row={inspected}
        onClose={() => setInspected(null)}
      />
    </div>
  );
}

const inspectLabel = (row: TransactionRow) => `Inspect transaction ${row.hash ?? row.id}`;

function HistoryRow({ row, onInspect }: { row: TransactionRow; onInspect: () => void }) {
  return (
    <tr className="border-b border-slate-100 last:border-0 hover:bg-slate-50 max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:py-2">
      <td
        data-label="Hash"
        className="max-sm:flex max-sm:justify-between max-sm:gap-2 max-sm:py-0.5 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:font-sans max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)] whitespace-nowrap px-3 py-2 font-mono text-xs text-slate-800"
        title={row.hash ?? 'No hash: never submitted'}
      >
        {row.hash ? shortenAddress(row.hash) : <span className="font-sans text-slate-600">Not sent</span>}
      </td>
      <td
        data-label="Time"
        className="max-sm:flex max-sm:justify-between max-sm:gap-2 max-sm:py-0.5 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:font-sans max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)] whitespace-nowrap px-3 py-2 text-slate-700 tabular-nums"
      >
        <time dateTime={row.time}>{formatTimeOfDay(row.time)}</time>
      </td>
      <td
        data-label="Wallet"
        className="max-sm:flex max-sm:justify-between max-sm:gap-2 max-sm:py-0.5 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:font-sans max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)] whitespace-nowrap px-3 py-2 font-mono text-xs text-slate-800"
        title={row.wallet ?? undefined}
      >
        {row.wallet ? <WalletLink address={row.wallet} /> : NOT_AVAILABLE}
      </td>
      <td
        data-label="Type"
        className="max-sm:flex max-sm:justify-between max-sm:gap-2 max-sm:py-0.5 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)] px-3 py-2 text-slate-700"
      >
        {row.type}
      </td>
      <td
        data-label="Status"
        className="max-sm:flex max-sm:items-center max-sm:justify-between max-sm:gap-2 max-sm:py-0.5 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)] px-3 py-2"
      >
        <StatusBadge status={row.status} />
      </td>
      <td
        data-label="Country"
        className="max-sm:flex max-sm:justify-between max-sm:gap-2 max-sm:py-0.5 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)] px-3 py-2 text-slate-700"
      >
        {countryName(row.country)}
      </td>
      <td
        data-label="Browser"
        className="max-sm:flex max-sm:justify-between max-sm:gap-2 max-sm:py-0.5 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)] px-3 py-2 text-slate-700"
      >
        {row.browser ?? 'Unknown'}
      </td>
      <td className="px-3 py-2 text-right max-sm:col-span-2 max-sm:py-1">
        <Button size="sm" variant="ghost" onClick={onInspect} aria-label={inspectLabel(row)}>
          <Search aria-hidden="true" className="size-3.5" /> Inspect
        </Button>
      </td>
    </tr>
  );
}
