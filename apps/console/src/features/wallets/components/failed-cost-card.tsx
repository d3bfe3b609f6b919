import { ChartCard } from '../../../components/ui/chart-card';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { Breakable } from '../../../lib/break-points';
import { formatDate, formatPercent, shortenAddress } from '../../../lib/format';
import { useFailedTransactionCost } from '../api/get-failed-transaction-cost';
import type { WalletRange } from '../api/wallet-keys';
import { chainName, formatCount, formatNative, nativeSymbol } from '../lib/format';
import { FILTERED_MEANING, FilteredNote, isFiltered } from './filtered-note';

/** Gas burned by reverted transactions, per chain and per contract function (docs/wallets.md), beside the gas chart. */
export function FailedCostCard({ range }: { range: WalletRange }) {
  const cost = useFailedTransactionCost(range);
  const data = cost.data;
  const isEmpty = (data?.chains ?? []).every(
    (chain) => chain.gasPaidWei === '0' && chain.failedBeforeSubmission === 0,
  );
  return (
    <ChartCard
      title="What failed transactions cost"
      eyebrow="Gas burned by reverts"
      status={cost.status}
      errorText={cost.error ? `Could not load the cost: ${cost.error.message}` : undefined}
      onRetry={() => void cost.refetch()}
      isEmpty={isEmpty}
      emptyText={
        isFiltered(range)
          ? `No receipt in this period. ${FILTERED_MEANING.cost}`
          : 'No receipt in this period'
      }
      heightClass="min-h-0"
      actions={
        <DownloadCsvButton
          table="Failed transaction cost"
          disabled={!data}
          build={() => ({
            header: ['Day', 'Chain', 'Contract', 'Selector', 'Function', 'Reverted', 'Gas burned (wei)'],
            rows: (data?.rows ?? []).map((row) => [
              row.day,
              row.chainId,
              row.contract,
              row.selector,
              row.functionName,
              row.reverted,
              row.gasBurnedWei,
            ]),
          })}
        />
      }
    >
      <FilteredNote range={range} card="cost" />
      {data && (
        <div className="flex flex-col gap-4" data-testid="failed-cost">
          <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            {data.chains.map((chain) => (
              <li
                key={chain.chainId ?? 'none'}
                className="rounded-xl bg-slate-50 p-3 ring-1 ring-inset ring-slate-200"
              >
                <p className="text-xs font-semibold uppercase tracking-wide text-indigo-700">
                  {chainName(chain.chainId)}
                </p>
                <p className="mt-1 text-lg font-bold text-red-700">
                  {formatNative(chain.gasBurnedWei)} {nativeSymbol(chain.chainId)}
                  <span className="ml-1 text-sm font-semibold text-slate-600">
                    {formatPercent(chain.burnedShare)} of gas paid
                  </span>
                </p>
                <p className="text-xs text-slate-600">
                  {formatCount(chain.reverted)} reverted of {formatNative(chain.gasPaidWei)}{' '}
                  {nativeSymbol(chain.chainId)} paid; {formatCount(chain.failedBeforeSubmission)} failed
                  before submission (no gas)
                </p>
              </li>
            ))}
          </ul>
          {data.rows.length > 0 && (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-xs">
                <thead className="uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="py-1 pr-2">
                      Contract · function
                    </th>
                    <th scope="col" className="py-1 pr-2">
                      Day
                    </th>
                    <th scope="col" className="py-1 pr-2 text-right">
                      Reverted
                    </th>
                    <th scope="col" className="py-1 text-right">
                      Burned
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {data.rows.slice(0, 6).map((row) => (
                    <tr key={`${row.day}/${row.chainId}/${row.contract}/${row.selector}`}>
                      <td className="py-1 pr-2 font-mono">
                        {row.contract ? shortenAddress(row.contract) : '—'} ·{' '}
                        {/* A well-known function by its name, as "Most executed contract functions" shows it. */}
                        <span title={row.functionName ?? row.selector ?? undefined} className="break-words">
                          <Breakable
                            text={
                              row.functionName ? row.functionName.replace(/\(.*$/, '') : (row.selector ?? '—')
                            }
                          />
                        </span>
                        <span className="font-sans text-slate-500"> {chainName(row.chainId)}</span>
                      </td>
                      <td className="py-1 pr-2 whitespace-nowrap">
                        {formatDate(`${row.day}T00:00:00Z`, 'UTC')}
                      </td>
                      <td className="py-1 pr-2 text-right tabular-nums">{formatCount(row.reverted)}</td>
                      <td className="py-1 text-right tabular-nums">
                        {formatNative(row.gasBurnedWei)} {nativeSymbol(row.chainId)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </ChartCard>
  );
}
