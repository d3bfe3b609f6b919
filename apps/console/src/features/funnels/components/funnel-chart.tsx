import { Breakable } from '../../../lib/break-points';
import { countOf, formatPercent } from '../../../lib/format';
import type { CustomFunnelResult } from '../api/get-custom-funnel';

/**
 * The funnel as horizontal bars, one per step: its users as a share of step 1's, the conversion from the
 * previous step and the users lost there. A list of figures first, the bars only illustrate them.
 */
export function FunnelChart({ steps }: { steps: CustomFunnelResult['steps'] }) {
  return (
    <ol className="flex flex-col gap-3" data-testid="funnel-chart">
      {steps.map((step) => (
        <li key={step.index} className="flex flex-col gap-1">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
            <span className="font-medium text-slate-800">
              {step.index}.{' '}
              <span className="break-words">
                <Breakable text={step.label} />
              </span>
            </span>
            <span className="tabular-nums text-slate-700" data-testid={`funnel-step-${step.index}`}>
              {countOf(step.users, 'user')} · {formatPercent(step.conversion)}
            </span>
          </div>
          <div className="h-6 w-full rounded bg-slate-100" aria-hidden="true">
            <div
              className="h-6 rounded bg-indigo-600"
              style={{ width: `${Math.max(step.conversion * 100, step.users > 0 ? 1 : 0)}%` }}
            />
          </div>
          {step.index > 1 && (
            <p className="text-xs text-slate-500">
              {formatPercent(step.stepConversion)} of step {step.index - 1} ·{' '}
              <span className="text-red-700">{step.dropOff.toLocaleString('en-US')} dropped off</span>
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}
