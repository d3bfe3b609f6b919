import type { ReactNode } from 'react';
import { Breakable } from '../../../lib/break-points';
import { formatPercent } from '../../../lib/format';
import { formatCount } from '../lib/format';
import { DIRECT_REFERRER } from '../lib/share-csv';
import { otherLabel, shareOf, sumOf } from '../lib/top-n';
import { FilterButton } from './filter-select';

interface CountsRow {
  users: number;
  wallets: number;
  transactions: number;
}

interface CountsTableProps<Row extends CountsRow> {
  /** What the first column holds, as its header says it. */
  keyHeader: string;
  rows: Row[];
  /** The rows past the first ones, folded into "Other". */
  rest?: Row[];
  /** "pages", "referrers": what "Other" holds. */
  noun: string;
  keyOf: (row: Row) => string;
  /** The first cell's content. */
  labelOf: (row: Row) => ReactNode;
  /** Says in words what the table lists (read by screen readers before the rows). */
  caption: string;
}

/** A first column and three counts (users, wallets, transactions): the top pages and referrers tables. */
function CountsTable<Row extends CountsRow>({
  keyHeader,
  rows,
  rest = [],
  noun,
  keyOf,
  labelOf,
  caption,
}: CountsTableProps<Row>) {
  // Shares are of the whole: every row the server returned, those folded into Other too (lib/top-n.ts).
  const whole = sumOf(rows, (row) => row.users) + sumOf(rest, (row) => row.users);
  const otherShare = formatPercent(
    shareOf(
      sumOf(rest, (row) => row.users),
      whole,
    ),
  );
  return (
    <div>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="bg-indigo-50 text-[0.7rem] uppercase tracking-wide text-indigo-800">
            <th scope="col" className="rounded-l-lg px-2 py-2 sm:px-3 font-semibold">
              {keyHeader}
            </th>
            <th scope="col" className="px-2 py-2 sm:px-3 text-right font-semibold">
              Users<span className="sm:hidden"> · share</span>
            </th>
            {/* On a phone the share sits under the users (one column less to fit 390 px). */}
            <th
              scope="col"
              className="px-2 py-2 sm:px-3 text-right font-semibold max-sm:hidden"
              title={`Share of the users of all ${noun}`}
            >
              Share
            </th>
            <th scope="col" className="px-2 py-2 sm:px-3 text-right font-semibold">
              Wallets
            </th>
            <th scope="col" className="rounded-r-lg px-2 py-2 sm:px-3 text-right font-semibold">
              TXs
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={keyOf(row)}>
              <th scope="row" className="px-2 py-2 font-normal break-words sm:px-3">
                {labelOf(row)}
              </th>
              <td className="px-2 py-2 sm:px-3 text-right font-semibold text-slate-900 tabular-nums">
                {formatCount(row.users)}
                <span className="block text-xs font-normal text-slate-600 sm:hidden">
                  {formatPercent(shareOf(row.users, whole))}
                </span>
              </td>
              <td className="px-2 py-2 sm:px-3 text-right text-slate-700 tabular-nums max-sm:hidden">
                {formatPercent(shareOf(row.users, whole))}
              </td>
              <td className="px-2 py-2 sm:px-3 text-right text-slate-700 tabular-nums">
                {formatCount(row.wallets)}
              </td>
              <td className="px-2 py-2 sm:px-3 text-right text-slate-700 tabular-nums">
                {formatCount(row.transactions)}
              </td>
            </tr>
          ))}
          {rest.length > 0 && (
            <tr className="text-slate-700">
              <th scope="row" className="px-2 py-2 font-normal italic sm:px-3">
                {otherLabel(rest.length)} {noun}
              </th>
              {/* A user can view several pages and come back from several referrers: users and
                  wallets of different rows do not add up, transactions (one page, one visit each) do. */}
              <td
                className="px-2 py-2 text-right text-slate-600 sm:px-3"
                title={`Users of different ${noun} do not add up`}
              >
                —<span className="sr-only">: users of different {noun} do not add up</span>
                <span className="block text-xs text-slate-600 sm:hidden">{otherShare}</span>
              </td>
              <td className="px-2 py-2 text-right text-slate-700 tabular-nums sm:px-3 max-sm:hidden">
                {otherShare}
              </td>
              <td
                className="px-2 py-2 text-right text-slate-600 sm:px-3"
                title={`Wallets of different ${noun} do not add up`}
              >
                —<span className="sr-only">: wallets of different {noun} do not add up</span>
              </td>
              <td className="px-2 py-2 text-right text-slate-700 tabular-nums sm:px-3">
                {formatCount(sumOf(rest, (row) => row.transactions))}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

type PageRow = CountsRow & { path: string };
type ReferrerRow = CountsRow & { domain: string | null };

export function TopPagesTable({ rows, rest }: { rows: PageRow[]; rest?: PageRow[] }) {
  return (
    <CountsTable
      keyHeader="Page"
      noun="pages"
      rest={rest}
      caption="Pages by users who viewed them, with the wallets connected and transactions started on each"
      rows={rows}
      keyOf={(row) => row.path}
      labelOf={(row) => (
        <FilterButton name="pages" value={row.path}>
          <span className="font-mono text-xs text-slate-900" title={row.path}>
            <Breakable text={row.path} />
          </span>
        </FilterButton>
      )}
    />
  );
}

export function TopReferrersTable({ rows, rest }: { rows: ReferrerRow[]; rest?: ReferrerRow[] }) {
  return (
    <CountsTable
      keyHeader="Referrer"
      noun="referrers"
      rest={rest}
      caption="Referrer domains by users whose visit came from them, with the wallets connected and transactions started in those visits"
      rows={rows}
      keyOf={(row) => row.domain ?? ''}
      labelOf={(row) =>
        row.domain === null ? (
          <span className="text-slate-500 italic">{DIRECT_REFERRER}</span>
        ) : (
          <FilterButton name="referrers" value={row.domain}>
            <span className="text-slate-900" title={row.domain}>
              <Breakable text={row.domain} />
            </span>
          </FilterButton>
        )
      }
    />
  );
}
