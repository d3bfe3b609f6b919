import { type AnalyticsFilters, hasAnalyticsFilters } from '@polyflow/contracts/analytics';
import type { Project } from '@polyflow/contracts/projects';
import {
  LifecycleStageLabels,
  LifecycleStages,
  type WalletListSort,
  WalletListSorts,
} from '@polyflow/contracts/wallets';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DOCS } from '../../../components/docs-links';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { CsvScope, DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ArrowDown, ArrowUp, Wallet as WalletIcon } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { PeriodFilter } from '../../../components/ui/period-filter';
import { describePeriod, resolvePeriod } from '../../../components/ui/periods';
import { Spinner } from '../../../components/ui/spinner';
import { usePeriod } from '../../../hooks/use-period';
import { formatDate, formatDateTime, shortenAddress } from '../../../lib/format';
import { useWallets, type WalletFilters } from '../api/get-wallets';
import { StageBadge } from '../components/stage-badge';
import { formatCount, formatNative } from '../lib/format';

const SORT_LABELS: Record<WalletListSort, string> = {
  last_seen: 'Last seen',
  first_seen: 'First seen',
  transactions: 'Transactions',
  failed: 'Failed',
  gas_paid: 'Gas paid',
};

const SEARCH = /^(0x)?[0-9a-fA-F]{6,40}$/;

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
                    `Stages as of ${formatDate(wallets.data.pages[0].asOf, 'UTC')}. Gas paid in wei is summed over chains.`}
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
                    'Gas paid (wei)',
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
            <div className="-mx-5 overflow-x-auto sm:mx-0">
              <table className="w-full min-w-[52rem] text-left text-sm">
                <thead className="text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      Address
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Stage
                    </th>
                    {(['first_seen', 'last_seen', 'transactions', 'failed', 'gas_paid'] as const).map(
                      (sort) => (
                        <th
                          key={sort}
                          scope="col"
                          className="px-3 py-2"
                          aria-sort={
                            filters.sort === sort ? (filters.descending ? 'descending' : 'ascending') : 'none'
                          }
                        >
                          <button
                            type="button"
                            className="inline-flex items-center gap-1 uppercase"
                            onClick={() => sortBy(sort)}
                          >
                            {SORT_LABELS[sort]}
                            {filters.sort === sort &&
                              (filters.descending ? (
                                <ArrowDown aria-hidden="true" className="size-3" />
                              ) : (
                                <ArrowUp aria-hidden="true" className="size-3" />
                              ))}
                          </button>
                        </th>
                      ),
                    )}
                    <th scope="col" className="px-3 py-2">
                      Source / campaign
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {rows.map((row) => (
                    <tr key={row.address} className="hover:bg-slate-50">
                      <td className="px-3 py-2">
                        <Link
                          to={walletPath(row.address)}
                          className="font-mono font-semibold text-indigo-700 hover:underline"
                          title={row.address}
                        >
                          {shortenAddress(row.address)}
                        </Link>
                      </td>
                      <td className="px-3 py-2">
                        <StageBadge stage={row.stage} />
                      </td>
                      <td className="px-3 py-2 whitespace-nowrap">{formatDate(row.firstSeen)}</td>
                      <td className="px-3 py-2 whitespace-nowrap" title={formatDateTime(row.lastSeen)}>
                        {formatDate(row.lastSeen)}
                      </td>
                      <td className="px-3 py-2 tabular-nums">{formatCount(row.transactions)}</td>
                      <td
                        className={`px-3 py-2 tabular-nums ${row.failed > 0 ? 'font-semibold text-red-700' : ''}`}
                      >
                        {formatCount(row.failed)}
                      </td>
                      <td className="px-3 py-2 tabular-nums">{formatNative(row.gasPaidWei)}</td>
                      <td className="px-3 py-2 text-slate-600">
                        {[row.source, row.campaign].filter(Boolean).join(' / ') || '—'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {wallets.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <Button
                variant="secondary"
                onClick={() => wallets.fetchNextPage()}
                disabled={wallets.isFetchingNextPage}
              >
                {wallets.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            </div>
          )}
        </Card>
      </div>
    </CsvScope>
  );
}

function WalletFiltersForm({
  filters,
  onChange,
}: {
  filters: WalletFilters;
  onChange: (changes: Record<string, string | null>) => void;
}) {
  const [search, setSearch] = useState(filters.search ?? '');
  const [source, setSource] = useState(filters.source ?? '');
  const [campaign, setCampaign] = useState(filters.campaign ?? '');
  const [country, setCountry] = useState(filters.country ?? '');
  const [chain, setChain] = useState(filters.chainId?.toString() ?? '');
  const searchError =
    search.trim() && !SEARCH.test(search.trim()) ? 'A full address or its first 6 hex characters' : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (searchError) return;
    onChange({ search: search.trim(), source, campaign, country, chain });
  };
  return (
    <form
      onSubmit={submit}
      className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-6"
      aria-label="Wallet filters"
    >
      <Input
        label="Address"
        placeholder="0x… (6+ hex)"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        error={searchError}
        className="lg:col-span-2"
      />
      <div className="flex flex-col gap-1.5">
        <label
          htmlFor="wallet-stage"
          className="text-xs font-semibold uppercase tracking-wide text-slate-600"
        >
          Stage
        </label>
        <select
          id="wallet-stage"
          className="h-10 rounded-lg bg-white px-3 text-sm ring-1 ring-inset ring-slate-300"
          value={filters.stage ?? ''}
          onChange={(e) => onChange({ stage: e.target.value || null })}
        >
          <option value="">Any stage</option>
          {LifecycleStages.map((stage) => (
            <option key={stage} value={stage}>
              {LifecycleStageLabels[stage]}
            </option>
          ))}
        </select>
      </div>
      <Input
        label="Chain id"
        inputMode="numeric"
        placeholder="Any"
        value={chain}
        onChange={(e) => setChain(e.target.value.replace(/\D/g, ''))}
      />
      <Input
        label="Country"
        placeholder="e.g. DE"
        maxLength={2}
        value={country}
        onChange={(e) => setCountry(e.target.value)}
      />
      <Input
        label="Source"
        placeholder="utm_source"
        value={source}
        onChange={(e) => setSource(e.target.value)}
      />
      <Input
        label="Campaign"
        placeholder="utm_campaign"
        value={campaign}
        onChange={(e) => setCampaign(e.target.value)}
        className="lg:col-span-2"
      />
      <div className="flex items-end gap-2 lg:col-span-2">
        <Button type="submit">Apply filters</Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            setSearch('');
            setSource('');
            setCampaign('');
            setCountry('');
            setChain('');
            onChange({ search: null, source: null, campaign: null, country: null, chain: null, stage: null });
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}
