import type { Annotation } from '@polyflow/contracts/annotations';
import { useId } from 'react';
import { annotationsOnBuckets } from '../../lib/annotations';
import { formatDate } from '../../lib/format';
import { Flag } from './icons';

interface ChartAnnotationsProps {
  annotations: readonly Annotation[];
  buckets: readonly { from: string; to: string }[];
  /** The plot area's insets in the chart box (the y axis on the left, the margin on the right), px. */
  plotLeft: number;
  plotRight: number;
}

/** "29 Mar 2026" or "1 Mar 2026 – 31 Mar 2026". */
const datesOf = (annotation: Annotation) => {
  const start = formatDate(`${annotation.startDate}T12:00:00Z`, 'UTC');
  return annotation.endDate && annotation.endDate !== annotation.startDate
    ? `${start} – ${formatDate(`${annotation.endDate}T12:00:00Z`, 'UTC')}`
    : start;
};

/**
 * Where a note opens from its flag: centred in the middle of the chart, along its edge near either end, so
 * that it stays inside the chart's box (a note centred on a flag near the edge of a phone's screen made the
 * whole page scroll sideways).
 */
const TIP_ALIGN = {
  start: 'left-0',
  middle: 'left-1/2 -translate-x-1/2',
  end: 'right-0',
} as const;

function alignOf(share: number): keyof typeof TIP_ALIGN {
  return share < 1 / 3 ? 'start' : share > 2 / 3 ? 'end' : 'middle';
}

function Marker({ annotation, share }: { annotation: Annotation; share: number }) {
  const tipId = useId();
  return (
    <li className="group absolute top-0 -translate-x-1/2" style={{ left: `${share * 100}%` }}>
      <button
        type="button"
        aria-describedby={tipId}
        aria-label={`Annotation, ${datesOf(annotation)}`}
        className="flex size-6 items-center justify-center rounded-full bg-amber-100 text-amber-800 ring-1 ring-amber-300 hover:bg-amber-200 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600"
      >
        <Flag aria-hidden="true" className="size-3.5" />
      </button>
      <div
        id={tipId}
        role="tooltip"
        data-align={alignOf(share)}
        className={`pointer-events-none invisible absolute top-7 ${TIP_ALIGN[alignOf(share)]} z-10 w-56 max-w-[calc(100vw-2rem)] rounded-lg bg-white p-2 text-left text-xs text-slate-800 shadow-lg ring-1 ring-slate-200 group-focus-within:visible group-hover:visible`}
      >
        <p className="font-semibold text-amber-900">{datesOf(annotation)}</p>
        <p className="mt-0.5 whitespace-pre-line break-words">{annotation.text}</p>
      </div>
    </li>
  );
}

/**
 * The project's annotations under a time chart: a flag at the bucket each starts in, its note on hover
 * or keyboard focus (each flag is a button in the tab order). Nothing when none overlaps the chart.
 */
export function ChartAnnotations({ annotations, buckets, plotLeft, plotRight }: ChartAnnotationsProps) {
  const placed = annotationsOnBuckets(annotations, buckets);
  if (placed.length === 0) return null;
  const count = buckets.length;
  return (
    <ul
      aria-label="Annotations"
      data-testid="chart-annotations"
      className="relative mt-1 h-7"
      style={{ marginLeft: plotLeft, marginRight: plotRight }}
    >
      {placed.map(({ annotation, index }) => (
        <Marker key={annotation.id} annotation={annotation} share={(index + 0.5) / count} />
      ))}
    </ul>
  );
}
