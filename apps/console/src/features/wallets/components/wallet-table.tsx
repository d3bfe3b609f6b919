import { type WalletListSort, WalletListSorts } from '@polyflow/contracts/wallets';
import { Link } from 'react-router';
import { cn } from '../../../components/ui/cn';
import { ArrowDown, ArrowUp } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate, formatDateTime, shortenAddress } from '../../../lib/format';
import type { WalletRow } from '../api/get-wallets';
import { formatCount, formatNative } from '../lib/format';
import { StageBadge } from './stage-badge';

export const SORT_LABELS: Record<WalletListSort, string> = {
  last_seen: 'Last seen',
  first_seen: 'First seen',
  transactions: 'Transactions',
  failed: 'Failed',
  gas_paid: 'Gas paid',
};

interface WalletTableProps {
  rows: readonly WalletRow[];
  sort: WalletListSort;
  descending: boolean;
  /** A column header was clicked: that column, the other way round when it already sorts the list. */
  onSortBy: (sort: WalletListSort) => void;
  /** The phone's sort menu chose a column and a direction. */
  onSort: (sort: WalletListSort, descending: boolean) => void;
  /** Another sort or filter is being fetched: the rows shown are the previous ones (aria-busy). */
  isRefreshing?: boolean;
  walletPath: (address: string) => string;
}

function AddressLink({
  address,
  walletPath,
  className,
}: {
  address: string;
  walletPath: (address: string) => string;
  className?: string;
}) {
  return (
    <Link
      to={walletPath(address)}
      className={cn('font-mono font-semibold text-indigo-700 hover:underline', className)}
      title={address}
    >
      {shortenAddress(address)}
    </Link>
  );
}

/**
 * The list's gas paid (gasPaidWei) is wei summed over the wallet's chains (docs/wallets.md), shown divided
 * by 10^18: each chain's native coin (ETH, POL, BNB…) added together, a total of mixed units when the wallet
 * used several chains. The wallet's page shows it per chain.
 */
export const GAS_PAID_UNIT = 'native units, all chains';
export const GAS_PAID_NOTE =
  "Gas paid adds each chain's fees in its own native coin (ETH, POL, BNB…) across the wallet's chains, so a wallet on several chains has a total of mixed units; its page shows gas per chain.";

const sourceOf = (row: WalletRow) => [row.source, row.campaign].filter(Boolean).join(' / ') || '—';

/**
 * A table when the list itself is 56rem wide or more (a container query on the card's width, not the
 * window's: the sidebar takes a share of the window from `lg` up); narrower, every wallet is a card with a
 * sort menu, so that no column (last seen, failed, gas paid, source) hides behind sideways scrolling, as the
 * Incidents list does.
 */
export function WalletTable({
  rows,
  sort,
  descending,
  onSortBy,
  onSort,
  walletPath,
  isRefreshing = false,
}: WalletTableProps) {
  return (
    <div aria-busy={isRefreshing || undefined} className="@container">
      {isRefreshing && (
        <p className="mb-2 flex items-center gap-2 text-xs text-slate-600">
          <Spinner /> Updating the list…
        </p>
      )}
      <div className="flex flex-col gap-2 @4xl:hidden">
        <label className="flex items-center gap-2 text-xs font-semibold text-slate-600">
          Sort by
          <select
            className="h-9 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-2 text-sm font-normal text-slate-900 focus:outline-2 focus:outline-indigo-500"
            value={`${sort}:${descending ? 'desc' : 'asc'}`}
            onChange={(event) => {
              const [chosen, direction] = event.target.value.split(':');
              const found = WalletListSorts.find((candidate) => candidate === chosen);
              if (found) onSort(found, direction === 'desc');
            }}
          >
            {WalletListSorts.flatMap((option) => [
              <option key={`${option}:desc`} value={`${option}:desc`}>
                {SORT_LABELS[option]}, {option.endsWith('seen') ? 'latest' : 'most'} first
              </option>,
              <option key={`${option}:asc`} value={`${option}:asc`}>
                {SORT_LABELS[option]}, {option.endsWith('seen') ? 'earliest' : 'fewest'} first
              </option>,
            ])}
          </select>
        </label>
        <ul aria-label="Wallets" className="flex flex-col gap-2">
          {rows.map((row) => (
            <li key={row.address} className="min-w-0 rounded-xl p-3 ring-1 ring-slate-200">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <AddressLink address={row.address} walletPath={walletPath} className="text-sm" />
                <StageBadge stage={row.stage} />
              </div>
              <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-xs @xl:grid-cols-[auto_1fr_auto_1fr] @xl:gap-x-4">
                <dt className="text-slate-600">First seen</dt>
                <dd className="text-slate-800">{formatDate(row.firstSeen)}</dd>
                <dt className="text-slate-600">Last seen</dt>
                <dd className="text-slate-800">{formatDateTime(row.lastSeen)}</dd>
                <dt className="text-slate-600">Transactions</dt>
                <dd className="text-slate-800 tabular-nums">{formatCount(row.transactions)}</dd>
                <dt className="text-slate-600">Failed</dt>
                <dd
                  className={`tabular-nums ${row.failed > 0 ? 'font-semibold text-red-700' : 'text-slate-800'}`}
                >
                  {formatCount(row.failed)}
                </dd>
                <dt className="text-slate-600">Gas paid</dt>
                <dd className="text-slate-800 tabular-nums">
                  {formatNative(row.gasPaidWei)} <span className="text-slate-500">({GAS_PAID_UNIT})</span>
                </dd>
                <dt className="text-slate-600">Source / campaign</dt>
                <dd className="break-words text-slate-800">{sourceOf(row)}</dd>
              </dl>
            </li>
          ))}
        </ul>
      </div>
      <div className="hidden overflow-x-auto @4xl:block">
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-3 py-2 whitespace-nowrap">
                Address
              </th>
              <th scope="col" className="px-3 py-2">
                Stage
              </th>
              {(['first_seen', 'last_seen', 'transactions', 'failed', 'gas_paid'] as const).map((column) => (
                <th
                  key={column}
                  scope="col"
                  className="px-3 py-2 whitespace-nowrap"
                  aria-sort={sort === column ? (descending ? 'descending' : 'ascending') : 'none'}
                >
                  <button
                    type="button"
                    className="inline-flex items-center gap-1 uppercase"
                    onClick={() => onSortBy(column)}
                  >
                    {SORT_LABELS[column]}
                    {sort === column &&
                      (descending ? (
                        <ArrowDown aria-hidden="true" className="size-3" />
                      ) : (
                        <ArrowUp aria-hidden="true" className="size-3" />
                      ))}
                  </button>
                  {column === 'gas_paid' && (
                    <span className="block text-[0.7rem] font-normal normal-case tracking-normal text-slate-600">
                      {GAS_PAID_UNIT}
                    </span>
                  )}
                </th>
              ))}
              <th scope="col" className="px-3 py-2">
                Source / campaign
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={row.address} className="hover:bg-slate-50">
                <td className="px-3 py-2 whitespace-nowrap">
                  <AddressLink address={row.address} walletPath={walletPath} />
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
                <td className="px-3 py-2 break-words text-slate-600">{sourceOf(row)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
