import { type IncidentRow, IncidentTypeLabels } from '@polyflow/contracts/incidents';
import { Link } from 'react-router';
import { cn } from '../../../components/ui/cn';
import { ChevronRight } from '../../../components/ui/icons';
import { WalletLink } from '../../../components/wallet-link';
import { formatDateTime } from '../../../lib/format';
import { SeverityBadge } from './severity-badge';

interface IncidentTableProps {
  rows: readonly IncidentRow[];
  /** The list's own query string, carried to the detail and back. */
  linkSearch: string;
  isRefreshing: boolean;
}

/** A resolved incident that occurred again: the list says so beside its severity. */
export function RegressionBadge() {
  return (
    <span
      title="Resolved, then it occurred again"
      className="inline-flex items-center rounded-full bg-fuchsia-50 px-2 py-0.5 text-xs font-semibold text-fuchsia-800 ring-1 ring-inset ring-fuchsia-200"
    >
      Regression
    </span>
  );
}

/** The assignee's email, or a quiet dash when nobody works on it. */
function AssigneeName({ row }: { row: IncidentRow }) {
  return row.assignee ? (
    <span title={row.assignee.email}>{row.assignee.email}</span>
  ) : (
    <span className="text-slate-500">Unassigned</span>
  );
}

function InspectLink({ row, linkSearch }: { row: IncidentRow; linkSearch: string }) {
  return (
    <Link
      to={{ pathname: encodeURIComponent(row.id), search: linkSearch }}
      aria-label={`Inspect incident ${row.id}`}
      className="inline-flex items-center gap-0.5 rounded-md px-2 py-1 text-xs font-semibold text-indigo-700 ring-1 ring-inset ring-indigo-200 hover:bg-indigo-50"
    >
      Inspect
      <ChevronRight aria-hidden="true" className="size-3.5" />
    </Link>
  );
}

/**
 * A table when the list itself is wide enough (a container query on the card's width, not the window's:
 * the sidebar takes a share of the window from `lg` up); otherwise every incident is a card, so that no
 * column (severity, wallet, occurrences) hides behind sideways scrolling and the page never gets wider than
 * the screen. The table's fixed columns leave the Type column (the error message) at least 15rem: the
 * Wallet column joins from a 56rem wide list, the Assignee column from 64rem.
 */
export function IncidentTable({ rows, linkSearch, isRefreshing }: IncidentTableProps) {
  return (
    <div
      aria-busy={isRefreshing || undefined}
      className={cn('@container transition-opacity', isRefreshing && 'opacity-60')}
    >
      <ul aria-label="Incidents" className="flex flex-col gap-2 @3xl:hidden">
        {rows.map((row) => (
          <li key={row.id} className="min-w-0 rounded-xl p-3 ring-1 ring-slate-200">
            <div className="flex flex-wrap items-center gap-1.5">
              <SeverityBadge severity={row.severity} />
              {row.isRegression && <RegressionBadge />}
              <span className="text-xs font-semibold text-slate-800">{IncidentTypeLabels[row.type]}</span>
            </div>
            <p className="mt-1.5 line-clamp-2 text-sm break-words text-slate-700">{row.title}</p>
            <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-xs @xl:grid-cols-[8rem_1fr]">
              <dt className="text-slate-500">Last seen</dt>
              <dd className="text-slate-800 tabular-nums">
                <time dateTime={row.lastSeen}>{formatDateTime(row.lastSeen)}</time>
              </dd>
              <dt className="text-slate-500">Wallet</dt>
              <dd className="font-mono text-slate-800">
                {row.wallet ? <WalletLink address={row.wallet} /> : '—'}
              </dd>
              <dt className="text-slate-500">Occurrences</dt>
              <dd className="text-slate-800 tabular-nums">{row.occurrences.toLocaleString('en-US')}</dd>
              <dt className="text-slate-500">Assignee</dt>
              <dd className="min-w-0 truncate text-slate-800">
                <AssigneeName row={row} />
              </dd>
            </dl>
            <div className="mt-2 flex justify-end">
              <InspectLink row={row} linkSearch={linkSearch} />
            </div>
          </li>
        ))}
      </ul>
      <div className="hidden rounded-xl ring-1 ring-slate-200 @3xl:block">
        <table className="w-full table-fixed text-sm">
          <thead className="bg-indigo-50 text-left text-xs font-semibold uppercase tracking-wide text-indigo-800">
            <tr>
              <th scope="col" className="w-36 px-3 py-2.5">
                Time
              </th>
              <th scope="col" className="px-3 py-2.5">
                Type
              </th>
              <th scope="col" className="w-32 px-3 py-2.5">
                Severity
              </th>
              <th scope="col" className="hidden w-32 px-3 py-2.5 @4xl:table-cell">
                Wallet
              </th>
              <th scope="col" className="w-32 px-3 py-2.5 text-right">
                Occurrences
              </th>
              <th scope="col" className="hidden w-40 px-3 py-2.5 @5xl:table-cell">
                Assignee
              </th>
              <th scope="col" className="w-24 px-3 py-2.5">
                <span className="sr-only">Inspect</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={row.id} className="align-top hover:bg-slate-50">
                <td className="px-3 py-2.5 text-slate-700 tabular-nums">
                  <time dateTime={row.lastSeen}>{formatDateTime(row.lastSeen)}</time>
                </td>
                <td className="min-w-0 px-3 py-2.5">
                  <p className="font-semibold text-slate-800">{IncidentTypeLabels[row.type]}</p>
                  <p className="text-xs break-words text-slate-600">{row.title}</p>
                </td>
                <td className="px-3 py-2.5">
                  <div className="flex flex-wrap gap-1">
                    <SeverityBadge severity={row.severity} />
                    {row.isRegression && <RegressionBadge />}
                  </div>
                </td>
                <td className="hidden px-3 py-2.5 font-mono text-xs whitespace-nowrap text-slate-700 @4xl:table-cell">
                  {row.wallet ? <WalletLink address={row.wallet} /> : '—'}
                </td>
                <td className="px-3 py-2.5 text-right text-slate-700 tabular-nums">
                  {row.occurrences.toLocaleString('en-US')}
                </td>
                <td className="hidden truncate px-3 py-2.5 text-slate-700 @5xl:table-cell">
                  <AssigneeName row={row} />
                </td>
                <td className="px-3 py-2.5 text-right">
                  <InspectLink row={row} linkSearch={linkSearch} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
