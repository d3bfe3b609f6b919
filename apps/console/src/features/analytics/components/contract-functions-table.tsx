import type { ContractFunctionCalls } from '@polyflow/contracts/analytics';
import { shortenAddress } from '../../../lib/format';
import { chainLabel } from '../lib/chains';
import { formatCount } from '../lib/format';

/** Contract (shortened, full address on hover), function name where known else its selector, calls. */
export function ContractFunctionsTable({ rows }: { rows: ContractFunctionCalls[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="bg-indigo-50 text-[0.7rem] uppercase tracking-wide text-indigo-800">
            <th scope="col" className="rounded-l-lg px-3 py-2 font-semibold">
              Contract
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Function
            </th>
            <th scope="col" className="rounded-r-lg px-3 py-2 text-right font-semibold">
              Calls
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={`${row.chainId}-${row.contract}-${row.selector}`}>
              <td className="whitespace-nowrap px-3 py-2" title={row.contract}>
                <span className="font-mono text-xs text-slate-700">{shortenAddress(row.contract)}</span>
                {/* The same contract address on two chains is two contracts. */}
                <span className="ml-2 text-[0.7rem] text-slate-500">{chainLabel(row.chainId, false)}</span>
              </td>
              <td
                className="max-w-40 truncate px-3 py-2 font-mono text-xs text-slate-900 sm:max-w-56"
                title={row.functionName ?? row.selector}
              >
                {row.functionName ? row.functionName.replace(/\(.*$/, '') : row.selector}
              </td>
              <td className="px-3 py-2 text-right font-semibold text-slate-900 tabular-nums">
                {formatCount(row.calls)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
