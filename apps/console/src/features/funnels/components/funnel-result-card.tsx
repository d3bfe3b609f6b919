import { AttributionDimensions } from '@polyflow/contracts/acquisition';
import type { Funnel } from '@polyflow/contracts/funnels';
import type { Project } from '@polyflow/contracts/projects';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { PeriodFilter } from '../../../components/ui/period-filter';
import { describePeriod, resolvePeriod } from '../../../components/ui/periods';
import { Spinner } from '../../../components/ui/spinner';
import type { AttributionDimension } from '../../../gql/graphql';
import { usePeriod } from '../../../hooks/use-period';
import { useCustomFunnel } from '../api/get-custom-funnel';
import { FunnelChart } from './funnel-chart';
import { SPLIT_LABELS, SplitTable } from './split-table';

export const windowText = (hours: number) =>
  hours % 24 === 0 ? `${hours / 24} day${hours === 24 ? '' : 's'}` : `${hours} hour${hours === 1 ? '' : 's'}`;

const isDimension = (value: string | null): value is AttributionDimension =>
  (AttributionDimensions as readonly string[]).includes(value ?? '');

/** The chosen funnel over the period: its chart and the split by landing attribution. */
export function ResultCard({
  project,
  funnel,
  split,
  onSplit,
}: {
  project: Project;
  funnel: Funnel;
  split: string | null;
  onSplit: (value: string | null) => void;
}) {
  const [selection, setSelection] = usePeriod();
  const period = resolvePeriod(selection);
  const dimension = isDimension(split) ? split : null;
  const result = useCustomFunnel({
    projectId: project.id,
    funnelId: funnel.id,
    from: period.from,
    to: period.to,
    split: dimension,
  });
  const data = result.data?.funnelId === funnel.id ? result.data : undefined;
  const entered = data?.steps[0]?.users ?? 0;
  return (
    <Card aria-labelledby="result-title">
      <div className="flex flex-col gap-3 lg:flex-row lg:items-start lg:justify-between">
        <CardHeader
          titleId="result-title"
          eyebrow={`Within ${windowText(funnel.windowHours)} of step 1`}
          title={funnel.name}
          description={<span data-testid="period-label">{describePeriod(selection)}</span>}
        />
        <PeriodFilter value={selection} onChange={setSelection} className="mb-4" />
      </div>
      {result.isError ? (
        <Alert tone="error">
          Could not load the funnel: {result.error.message}{' '}
          <Button size="sm" variant="secondary" onClick={() => void result.refetch()}>
            Retry
          </Button>
        </Alert>
      ) : !data ? (
        <p className="flex items-center gap-2 py-8 text-sm text-slate-500" role="status">
          <Spinner /> Loading the funnel…
        </p>
      ) : (
        <div className="flex flex-col gap-6">
          {entered === 0 && (
            <p className="text-sm text-slate-600" data-testid="funnel-empty">
              No user completed step 1 in this period. Try a longer period, or check the first step.
            </p>
          )}
          <FunnelChart steps={data.steps} />
          <section aria-labelledby="split-title" className="flex flex-col gap-3">
            <div className="flex flex-wrap items-end justify-between gap-2">
              <h3 id="split-title" className="text-sm font-semibold text-slate-800">
                By landing attribution
              </h3>
              <div className="flex flex-col gap-1.5">
                <label
                  htmlFor="funnel-split"
                  className="text-xs font-semibold uppercase tracking-wide text-slate-600"
                >
                  Split by
                </label>
                <select
                  id="funnel-split"
                  className="h-10 rounded-lg bg-white px-3 text-sm ring-1 ring-inset ring-slate-300"
                  value={dimension ?? ''}
                  onChange={(event) => onSplit(event.target.value || null)}
                >
                  <option value="">No split</option>
                  {AttributionDimensions.map((value) => (
                    <option key={value} value={value}>
                      {SPLIT_LABELS[value]}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            {dimension ? (
              <SplitTable dimension={dimension} steps={data.steps} rows={data.splitRows} />
            ) : (
              <p className="text-sm text-slate-500">
                Choose a dimension to compare the campaigns, sources or mediums users landed from.
              </p>
            )}
          </section>
        </div>
      )}
    </Card>
  );
}
