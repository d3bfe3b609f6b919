import type { AttributionDimension } from '../../../gql/graphql';
import { formatPercent } from '../../../lib/format';
import type { CustomFunnelResult } from '../api/get-custom-funnel';

export const SPLIT_LABELS: Record<AttributionDimension, string> = {
  campaign: 'Campaign',
  source: 'Source',
  medium: 'Medium',
  content: 'Content',
  term: 'Term',
};

/** Users per step for each landing value of the dimension (the session of the user's first step 1). */
export function SplitTable({
  dimension,
  steps,
  rows,
}: {
  dimension: AttributionDimension;
  steps: CustomFunnelResult['steps'];
  rows: CustomFunnelResult['splitRows'];
}) {
  if (rows.length === 0) {
    return <p className="text-sm text-slate-500">No user entered the funnel in this period.</p>;
  }
  return (
    <div className="-mx-5 overflow-x-auto sm:mx-0">
      <table className="w-full text-left text-sm" data-testid="funnel-split">
        <caption className="sr-only">
          Users per step by landing {SPLIT_LABELS[dimension].toLowerCase()}
        </caption>
        <thead className="text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2">
              {SPLIT_LABELS[dimension]}
            </th>
            {steps.map((step) => (
              <th key={step.index} scope="col" className="px-3 py-2 text-right" title={step.label}>
                Step {step.index}
              </th>
            ))}
            <th scope="col" className="px-3 py-2 text-right">
              Conversion
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.value ?? '∅'}>
              <th scope="row" className="min-w-[7rem] px-3 py-2 font-normal [overflow-wrap:anywhere]">
                {row.value ?? <span className="whitespace-nowrap italic text-slate-500">Unattributed</span>}
              </th>
              {row.users.map((users, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: one cell per step, in step order.
                <td key={index} className="px-3 py-2 text-right tabular-nums">
                  {users.toLocaleString('en-US')}
                </td>
              ))}
              <td className="px-3 py-2 text-right tabular-nums">{formatPercent(row.conversion)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
