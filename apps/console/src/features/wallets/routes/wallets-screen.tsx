import { type AnalyticsFilters, hasAnalyticsFilters } from '@polyflow/contracts/analytics';
import type { Project } from '@polyflow/contracts/projects';
import { LifecycleStageLabels, type WalletListSort, WalletListSorts } from '@polyflow/contracts/wallets';
import { type ReactNode, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { DOCS } from '../../../components/docs-links';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { CsvScope, DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Wallet as WalletIcon } from '../../../components/ui/icons';
import { PeriodFilter } from '../../../components/ui/period-filter';
import { describePeriod, resolvePeriod } from '../../../components/ui/periods';
import { Spinner } from '../../../components/ui/spinner';
import { usePeriod } from '../../../hooks/use-period';
import { announce, focusSoon } from '../../../lib/announce';
import { countOf, formatDate } from '../../../lib/format';
import { useWallets, type WalletFilters } from '../api/get-wallets';
import { WalletFiltersForm } from '../components/wallet-filters-form';
import { GAS_PAID_NOTE, WalletTable } from '../components/wallet-table';

function filtersOf(params: URLSearchParams): WalletFilters {
  const text = (name: string) => params.get(name)?.trim() || null;
  const sort = params.get('sort');
  const chain = Number(params.get('chain'));
  return {
    search: text('search'),
    stage: text('stage'),
    source: text('source'),
    campaign: text('campaign'),
    chainId: Number.isSafeInteger(chain) && chain > 0 ? chain : null,
    country: text('country')?.toUpperCase() ?? null,
    sort: WalletListSorts.find((candidate) => candidate === sort) ?? 'last_seen',
    descending: params.get('dir') !== 'asc',
  };
}

/**
 * The Analytics screen's filters as the list takes them (docs/wallets.md, "The Wallets list"): kept in the
 * URL by the app (the Analytics screen's parameters), shown as its removable chips, and named in the CSV.
 */
export interface ScreenFilters {
  filters: AnalyticsFilters;
  /** The removable chips (nothing without filters). */
  chips: ReactNode;
  /** "Country: France; Chain: Polygon", for the CSV's Filters column. */
  description: string;
}

export const FILTERED_LIST_MEANING =
  'Filtered: the wallets a matching session carried in the period, each with its figures and stage among all wallets.';

/** Spec "Wallets": the wallets seen in the period, searchable, filtered, sorted and paged on the server. */
export function WalletsScreen({
  project,
  walletPath,
  screenFilters,
}: {
  project: Project;
  walletPath: (address: string) => string;
  screenFilters?: ScreenFilters;
}) {
  const [selection, setSelection] = usePeriod();
  const [params, setParams] = useSearchParams();
  const period = resolvePeriod(selection);
  const filters = filtersOf(params);
  const filtered = screenFilters && hasAnalyticsFilters(screenFilters.filters) ? screenFilters : null;
  // Without the Analytics filters, the same query key as before they existed.
  const range = {
    projectId: project.id,
    from: period.from,
    to: period.to,
    ...(filtered && { filters: filtered.filters }),
  };
  const wallets = useWallets(range, filters);
  const rows = wallets.data?.pages.flatMap((page) => page.rows) ?? [];
  const isRefreshing = wallets.isPlaceholderData;

  // A new search, filter, sort or period changes the list in place: say what it holds once it arrived
  // (WCAG 4.1.3). Not on the first load, which the page itself shows.
  const listKey = JSON.stringify({ range, filters });
  const announcedKey = useRef<string | null>(null);
  const isSettled = wallets.isSuccess && !wallets.isPlaceholderData && !wallets.isFetchingNextPage;
  const count = rows.length;
  const hasMore = wallets.hasNextPage;
  useEffect(() => {
    if (!isSettled) return;
    const previous = announcedKey.current;
    announcedKey.current = listKey;
    if (previous === null || previous === listKey) return;
    announce(count === 0 ? 'No wallet' : `${countOf(count, 'wallet')}${hasMore ? ', more to load' : ''}`);
  }, [isSettled, listKey, count, hasMore]);

  // Load more stays focusable while it loads; when the last page came, it goes: focus the list's heading.
  const loadMore = () =>
    wallets.fetchNextPage().then((result) => {
      if (!result.hasNextPage) focusSoon(() => document.getElementById('wallets-table-title'));
    });

  const setParam = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [name, value] of Object.entries(changes)) {
        if (value === null || value === '') next.delete(name);
        else next.set(name, value);
      }
      return next;
    });

  const sortBy = (sort: WalletListSort) =>
    setParam({
      sort: sort === 'last_seen' ? null : sort,
      dir: filters.sort === sort && filters.descending ? 'asc' : null,
    });

  return (
    <CsvScope scope={{ project: project.name, screen: 'wallets', from: period.from, to: period.to }}>
      <div className="flex animate-panel flex-col gap-4">
        <PageHeader
          eyebrow={project.name}
          title="Wallets"
          help={{ href: DOCS.wallets, topic: 'the Wallets list and lifecycle stages' }}
        />
        <Card aria-labelledby="wallets-title">
          <div className="flex flex-col gap-3 lg:flex-row lg:items-start lg:justify-between">
            <CardHeader
              titleId="wallets-title"
              eyebrow="Every wallet"
              title="Wallets"
              description={<span data-testid="period-label">{describePeriod(selection)}</span>}
            />
            <PeriodFilter value={selection} onChange={setSelection} className="mb-4" />
          </div>
          {screenFilters?.chips}
          <WalletFiltersForm filters={filters} onChange={setParam} />
        </Card>
        <Card aria-labelledby="wallets-table-title">
          <CardHeader
            titleId="wallets-table-title"
            title="Wallets seen in the period"
            description={
              (filtered || wallets.data?.pages[0]) && (
                <>
                  {filtered && (
                    <span className="block" data-testid="filtered-note-list">
                      {FILTERED_LIST_MEANING}
                    </span>
                  )}
                  {wallets.data?.pages[0] &&
                    `Stages as of ${formatDate(wallets.data.pages[0].asOf, 'UTC')}. ${GAS_PAID_NOTE}`}
                </>
              )
            }
            actions={
              <DownloadCsvButton
                table="Wallets"
                disabled={rows.length === 0}
                build={() => ({
                  header: [
                    'Address',
                    'Stage',
                    'First seen',
                    'Last seen',
                    'Transactions',
                    'Failed',
                    'Gas paid (wei, summed over chains)',
                    'Source',
                    'Campaign',
                    ...(filtered ? ['Filters'] : []),
                  ],
                  rows: rows.map((row) => [
                    row.address,
                    LifecycleStageLabels[row.stage],
                    row.firstSeen,
                    row.lastSeen,
                    row.transactions,
                    row.failed,
                    row.gasPaidWei,
                    row.source,
                    row.campaign,
                    ...(filtered ? [filtered.description] : []),
                  ]),
                })}
              />
            }
          />
          {wallets.isError ? (
            <Alert tone="error">Could not load the wallets: {wallets.error.message}</Alert>
          ) : wallets.isPending ? (
            <p className="flex items-center gap-2 py-8 text-sm text-slate-500" role="status">
              <Spinner /> Loading the wallets…
            </p>
          ) : rows.length === 0 ? (
            <EmptyState icon={<WalletIcon aria-hidden="true" className="size-6" />} title="No wallet">
              No wallet matches in this period. Try a longer period or fewer filters.
            </EmptyState>
          ) : (
            <WalletTable
              rows={rows}
              isRefreshing={isRefreshing}
              sort={filters.sort}
              descending={filters.descending}
              onSortBy={sortBy}
              onSort={(sort, descending) =>
                setParam({ sort: sort === 'last_seen' ? null : sort, dir: descending ? null : 'asc' })
              }
              walletPath={walletPath}
            />
          )}
          {wallets.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <Button variant="secondary" onClick={loadMore} isLoading={wallets.isFetchingNextPage}>
                {wallets.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            </div>
          )}
        </Card>
      </div>
    </CsvScope>
  );
}
