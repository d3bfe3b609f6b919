import { bucketRangeLabel } from '../lib/chart-axis';
import type { ComparedPoint } from '../lib/series-comparison';

/**
 * A time-series chart's values as a table behind "Show as table" (WCAG 1.1.1): the chart itself is a
 * picture (no tab stop, no keyboard tooltip), so the table is how a keyboard or a screen reader reads it.
 */
export function SeriesTable({
  title,
  points,
  valueHeader,
  format,
  showPrevious,
}: {
  title: string;
  points: readonly ComparedPoint[];
  valueHeader: string;
  format: (value: number | null) => string;
  showPrevious: boolean;
}) {
  return (
    <details className="mt-3 text-xs text-slate-700">
      <summary className="cursor-pointer rounded font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
        Show as table
      </summary>
      {/* Scrolls when the buckets are hours: a tab stop so the keyboard can scroll it (axe: scrollable-region-focusable). */}
      <section
        aria-label={`${title}, table`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll area the keyboard must reach (WCAG 2.1.1).
        tabIndex={0}
        className="mt-2 max-h-64 overflow-auto rounded-lg ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <table className="w-full border-collapse text-left">
          <caption className="sr-only">{title}</caption>
          <thead className="sticky top-0 bg-slate-50 text-slate-600">
            <tr>
              <th scope="col" className="px-2 py-1.5 font-semibold">
                Period
              </th>
              <th scope="col" className="px-2 py-1.5 text-right font-semibold">
                {valueHeader}
              </th>
              {showPrevious && (
                <th scope="col" className="px-2 py-1.5 text-right font-semibold">
                  Previous period
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.from} className="border-t border-slate-100">
                <th scope="row" className="px-2 py-1 font-normal wrap-anywhere">
                  {bucketRangeLabel(point.from, point.to)}
                </th>
                <td className="px-2 py-1 text-right tabular-nums">{format(point.value)}</td>
                {showPrevious && (
                  <td className="px-2 py-1 text-right tabular-nums">{format(point.previousValue)}</td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </details>
  );
}
