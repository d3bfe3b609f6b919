import { type IncidentRow, IncidentTypeLabels } from '@polyflow/contracts/incidents';
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '../../../components/ui/cn';
import { formatDateTime, shortenAddress } from '../lib/format';
import { SeverityBadge } from './severity-badge';

interface IncidentTableProps {
  rows: readonly IncidentRow[];
  /** The list's own query string, carried to the detail and back. */
  linkSearch: string;
  isRefreshing: boolean;
}

export function IncidentTable({ rows, linkSearch, isRefreshing }: IncidentTableProps) {
  return (
    <div className="relative overflow-x-auto rounded-xl ring-1 ring-slate-200">
      <table
        aria-busy={isRefreshing || undefined}
        className={cn('w-full min-w-[46rem] text-sm transition-opacity', isRefreshing && 'opacity-60')}
      >
        <thead className="bg-indigo-50 text-left text-xs font-semibold uppercase tracking-wide text-indigo-800">
          <tr>
            <th scope="col" className="px-3 py-2.5">
              Time
            </th>
            <th scope="col" className="px-3 py-2.5">
              Type
            </th>
            <th scope="col" className="px-3 py-2.5">
              Severity
            </th>
            <th scope="col" className="px-3 py-2.5">
              Wallet
            </th>
            <th scope="col" className="px-3 py-2.5 text-right">
              Occurrences
            </th>
            <th scope="col" className="px-3 py-2.5">
              <span className="sr-only">Inspect</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id} className="align-top hover:bg-slate-50">
              <td className="px-3 py-2.5 whitespace-nowrap text-slate-700 tabular-nums">
                <time dateTime={row.lastSeen}>{formatDateTime(row.lastSeen)}</time>
              </td>
              <td className="max-w-80 px-3 py-2.5">
                <p className="font-semibold text-slate-800">{IncidentTypeLabels[row.type]}</p>
                <p className="truncate text-xs text-slate-500" title={row.title}>
                  {row.title}
                </p>
              </td>
              <td className="px-3 py-2.5">
                <SeverityBadge severity={row.severity} />
              </td>
              <td className="px-3 py-2.5 font-mono text-xs whitespace-nowrap text-slate-700">
                {row.wallet ? <span title={row.wallet}>{shortenAddress(row.wallet)}</span> : '—'}
              </td>
              <td className="px-3 py-2.5 text-right text-slate-700 tabular-nums">
                {row.occurrences.toLocaleString('en-US')}
              </td>
              <td className="px-3 py-2.5 text-right">
                <Link
                  to={{ pathname: encodeURIComponent(row.id), search: linkSearch }}
                  aria-label={`Inspect incident ${row.id}`}
                  className="inline-flex items-center gap-0.5 rounded-md px-2 py-1 text-xs font-semibold text-indigo-700 ring-1 ring-inset ring-indigo-200 hover:bg-indigo-50"
                >
                  Inspect
                  <ChevronRight aria-hidden="true" className="size-3.5" />
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
