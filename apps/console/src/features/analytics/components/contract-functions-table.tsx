import type { ContractFunctionCalls } from '@polyflow/contracts/analytics';
import { Breakable } from '../../../lib/break-points';
import { shortenAddress } from '../../../lib/format';
import { chainLabel } from '../lib/chains';
import { formatCount } from '../lib/format';
import { otherLabel, sumOf } from '../lib/top-n';
import { FilterButton } from './filter-select';

/**
 * Contract (shortened, full address on hover), function name where known else its selector, calls; the
 * functions past the first rows in one "Other" row (calls add up).
 */
export function ContractFunctionsTable({
  rows,
  rest = [],
}: {
  rows: ContractFunctionCalls[];
  rest?: ContractFunctionCalls[];
}) {
  return (
    <div>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="bg-indigo-50 text-[0.7rem] uppercase tracking-wide text-indigo-800">
            <th scope="col" className="rounded-l-lg px-2 py-2 font-semibold sm:px-3">
              Contract
            </th>
            <th scope="col" className="px-2 py-2 font-semibold sm:px-3">
              Function
            </th>
            <th scope="col" className="rounded-r-lg px-2 py-2 text-right font-semibold sm:px-3">
              Calls
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={`${row.chainId}-${row.contract}-${row.selector}`}>
              <td className="px-2 py-2 whitespace-nowrap sm:px-3" title={row.contract}>
                <span className="font-mono text-xs text-slate-700">{shortenAddress(row.contract)}</span>
                {/* The same contract address on two chains is two contracts. On a phone, below it. */}
                <span className="block text-[0.7rem] text-slate-600 sm:ml-2 sm:inline">
                  <FilterButton name="chains" value={row.chainId === null ? null : String(row.chainId)}>
                    {chainLabel(row.chainId, false)}
                  </FilterButton>
                </span>
              </td>
              <td
                // Long names wrap rather than being cut: a phone has no hover to read a title.
                className="px-2 py-2 font-mono text-xs break-words text-slate-900 sm:px-3"
                title={row.functionName ?? row.selector}
              >
                <Breakable text={row.functionName ? row.functionName.replace(/\(.*$/, '') : row.selector} />
              </td>
              <td className="px-2 py-2 text-right font-semibold text-slate-900 tabular-nums sm:px-3">
                {formatCount(row.calls)}
              </td>
            </tr>
          ))}
          {rest.length > 0 && (
            <tr className="text-slate-700">
              <td colSpan={2} className="px-2 py-2 italic sm:px-3">
                {otherLabel(rest.length)}
              </td>
              <td className="px-2 py-2 text-right font-semibold text-slate-900 tabular-nums sm:px-3">
                {formatCount(sumOf(rest, (row) => row.calls))}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
