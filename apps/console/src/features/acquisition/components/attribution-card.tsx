import {
  type AcquisitionFilters,
  type AttributionDimension,
  AttributionDimensions,
} from '@polyflow/contracts/acquisition';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Card, CardHeader } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { describePeriod, type PeriodSelection, resolvePeriod } from '../../../components/ui/periods';
import { Spinner } from '../../../components/ui/spinner';
import { useGoals } from '../../../lib/goals';
import { useAttribution } from '../api/get-attribution';
import { conversionsOf, useGoalAttribution } from '../api/get-goal-attribution';
import type { AttributionSort } from '../hooks/use-acquisition-view';
import { attributionCsv } from '../lib/acquisition-csv';
import { sortAttributionRows } from '../lib/attribution-columns';
import { AttributionLegend, AttributionTable } from './attribution-table';

const TabLabels: Record<AttributionDimension, string> = {
  campaign: 'Campaign',
  source: 'Source',
  medium: 'Medium',
  content: 'Content',
  term: 'Term',
};

interface AttributionCardProps {
  projectId: string;
  selection: PeriodSelection;
  filters: AcquisitionFilters;
  dimension: AttributionDimension;
  onDimensionChange: (dimension: AttributionDimension) => void;
  sort: AttributionSort | null;
  onSortChange: (sort: AttributionSort | null) => void;
}

const periodRange = (selection: PeriodSelection) => {
  const { from, to } = resolvePeriod(selection);
  return { from, to };
};

export function AttributionCard({
  projectId,
  selection,
  filters,
  dimension,
  onDimensionChange,
  sort,
  onSortChange,
}: AttributionCardProps) {
  const id = useId();
  const tabRefs = useRef(new Map<AttributionDimension, HTMLButtonElement>());
  const attribution = useAttribution({ projectId, dimension, filters, ...periodRange(selection) });
  const previous = useAttribution({
    projectId,
    dimension,
    filters,
    ...periodRange(selection),
    previous: true,
  });
  const previousRows = previous.isPlaceholderData ? undefined : previous.data?.rows;
  // The goal column: none until a goal is picked (docs/goals.md#in-the-attribution-table).
  const goals = useGoals(projectId);
  const [pickedGoal, setPickedGoal] = useState<string | null>(null);
  const goalId = goals.data?.some((goal) => goal.id === pickedGoal) ? pickedGoal : null;
  const goalAttribution = useGoalAttribution(
    { projectId, dimension, filters, ...periodRange(selection) },
    goalId,
  );
  const goalColumn =
    goalId === null
      ? undefined
      : {
          name: goals.data?.find((goal) => goal.id === goalId)?.name ?? '',
          isLoading: goalAttribution.isPending,
          error: goalAttribution.isError ? goalAttribution.error.message : undefined,
          valueOf: (row: { kind: string; value: string | null }) => conversionsOf(goalAttribution.data, row),
        };

  // Arrow keys move between tabs (WAI-ARIA tabs pattern, automatic activation).
  const onTabKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = AttributionDimensions.indexOf(dimension);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    const target =
      event.key === 'Home'
        ? AttributionDimensions[0]
        : event.key === 'End'
          ? AttributionDimensions[AttributionDimensions.length - 1]
          : step
            ? AttributionDimensions[
                (index + step + AttributionDimensions.length) % AttributionDimensions.length
              ]
            : undefined;
    if (!target) return;
    event.preventDefault();
    onDimensionChange(target);
    tabRefs.current.get(target)?.focus();
  };

  const rows = attribution.data?.rows;
  const isEmpty = rows?.every((row) => row.sessions === 0);
  return (
    <Card aria-labelledby={`${id}-title`}>
      <CardHeader
        titleId={`${id}-title`}
        eyebrow="Campaigns"
        title="Attributions"
        description={`Sessions by their landing UTM ${TabLabels[dimension].toLowerCase()}, ${describePeriod(selection).replace(/^\w/, (c) => c.toLowerCase())}.`}
      />
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div
          role="tablist"
          aria-label="Group by"
          className="flex flex-wrap gap-1 rounded-xl bg-slate-100 p-1"
        >
          {AttributionDimensions.map((key) => (
            <button
              key={key}
              ref={(element) => {
                if (element) tabRefs.current.set(key, element);
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${key}`}
              aria-selected={dimension === key}
              aria-controls={`${id}-panel`}
              tabIndex={dimension === key ? 0 : -1}
              onClick={() => onDimensionChange(key)}
              onKeyDown={onTabKeyDown}
              className={cn(
                'rounded-lg px-3 py-1.5 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-indigo-600',
                dimension === key
                  ? 'bg-white text-indigo-800 shadow-sm'
                  : 'text-slate-600 hover:text-indigo-800',
              )}
            >
              {TabLabels[key]}
            </button>
          ))}
        </div>
        <div className="flex flex-col gap-1">
          <label
            htmlFor={`${id}-goal`}
            className="text-xs font-semibold uppercase tracking-wide text-slate-600"
          >
            Goal column
          </label>
          <select
            id={`${id}-goal`}
            className="h-9 max-w-56 rounded-lg bg-white px-3 text-sm ring-1 ring-inset ring-slate-300"
            value={goalId ?? ''}
            disabled={!goals.data || goals.data.length === 0}
            title={goals.data?.length === 0 ? 'No goals yet: add them on the Analytics screen.' : undefined}
            onChange={(event) => setPickedGoal(event.target.value || null)}
          >
            <option value="">{goals.data?.length === 0 ? 'No goals yet' : 'None'}</option>
            {(goals.data ?? []).map((goal) => (
              <option key={goal.id} value={goal.id}>
                {goal.name}
              </option>
            ))}
          </select>
        </div>
        <DownloadCsvButton
          table={`Attributions by ${TabLabels[dimension].toLowerCase()}`}
          build={() => attributionCsv(dimension, sortAttributionRows(rows ?? [], sort), previousRows)}
          disabled={!rows || attribution.isPlaceholderData}
        />
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${dimension}`}>
        {attribution.isError ? (
          <Alert tone="error">
            Could not load the attributions: {attribution.error.message}{' '}
            <button type="button" className="font-semibold underline" onClick={() => attribution.refetch()}>
              Try again
            </button>
          </Alert>
        ) : !rows ? (
          <p className="flex items-center gap-2 py-8 text-sm text-slate-500" role="status">
            <Spinner /> Loading attributions…
          </p>
        ) : (
          <>
            {isEmpty && (
              <p className="mb-3 text-sm text-slate-600" role="status">
                No sessions in this period{Object.keys(filters).length > 0 ? ' with these filters' : ''}.
              </p>
            )}
            <AttributionTable
              dimension={dimension}
              rows={rows}
              previousRows={previousRows}
              sort={sort}
              onSortChange={onSortChange}
              isRefreshing={attribution.isPlaceholderData}
              goalColumn={goalColumn}
            />
            {goalColumn?.error && (
              <Alert tone="error" className="mt-3">
                Could not load the goal's conversions: {goalColumn.error}
              </Alert>
            )}
            <AttributionLegend />
          </>
        )}
      </div>
    </Card>
  );
}
