import { Bar, CartesianGrid, ComposedChart, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import {
  AXIS_COLOR,
  bucketRangeLabel,
  bucketTickLabel,
  compactNumber,
  countTicks,
  GRID_COLOR,
  INDIGO_PALETTE,
  isolatedIndexes,
  pickTicks,
} from '../../lib/chart-axis';
import { formatCount, formatGwei } from '../../lib/format';
import type { ComparedPoint } from '../../lib/series-comparison';

/*
 * The time-series chart group: one lazy chunk (with recharts) loaded when the Metrics tab shows.
 * Buckets arrive gap-filled from the server; x ticks are at most four bucket starts (UTC).
 */

const axisProps = {
  stroke: AXIS_COLOR,
  tick: { fontSize: 11, fill: AXIS_COLOR },
  tickLine: false,
  axisLine: { stroke: GRID_COLOR },
} as const;

const tooltipStyle = {
  contentStyle: { borderRadius: 8, border: '1px solid #e0e7ff', fontSize: 12 },
  // recharts writes each item in its series' colour: pale indigo on white is below WCAG AA (1.99:1).
  itemStyle: { color: '#334155' },
  labelStyle: { color: '#312e81', fontWeight: 600 },
} as const;

/** The previous period's line: dashed and lighter than the range's, on the same axis. */
const PREVIOUS_COLOR = '#a5b4fc';
const PREVIOUS_DASH = '5 4';

interface SeriesChartProps {
  /** The chart's accessible name: its title and a summary of its values (the table under it has them all). */
  label: string;
  /** The range's buckets, each with the previous period's bucket i beside it (series-comparison.ts). */
  points: readonly ComparedPoint[];
  granularity: string;
  /** Draw the previous period's overlay (its values are in the points). */
  showPrevious: boolean;
}

function toPoints(points: readonly ComparedPoint[]) {
  return points.map((point) => ({
    ...point,
    label: bucketRangeLabel(point.from, point.to),
    previousLabel:
      point.previousFrom && point.previousTo ? bucketRangeLabel(point.previousFrom, point.previousTo) : null,
  }));
}

/** What each line is: the range solid, the previous period dashed (only with the overlay). */
export function SeriesLegend({ current }: { current: string }) {
  return (
    <ul aria-label="Legend" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
      <li className="flex items-center gap-1.5">
        <svg aria-hidden="true" width="20" height="6">
          <line x1="0" y1="3" x2="20" y2="3" stroke={INDIGO_PALETTE[1]} strokeWidth="2" />
        </svg>
        {current}, this period
      </li>
      <li className="flex items-center gap-1.5">
        <svg aria-hidden="true" width="20" height="6">
          <line
            x1="0"
            y1="3"
            x2="20"
            y2="3"
            stroke={PREVIOUS_COLOR}
            strokeWidth="2"
            strokeDasharray={PREVIOUS_DASH}
          />
        </svg>
        Previous period
      </li>
    </ul>
  );
}

/** "12 Nov, 10:00–11:00 (previous period: 11 Nov, 10:00–11:00)": both buckets a tooltip row describes. */
function tooltipLabel(
  payload: readonly { payload?: { label?: string; previousLabel?: string | null } }[] | undefined,
) {
  const point = payload?.[0]?.payload;
  if (!point) return '';
  return point.previousLabel ? `${point.label} · previous: ${point.previousLabel}` : (point.label ?? '');
}

/** Average effective gas price per bucket, in gwei; gaps (no mined transaction) break the line. */
export function GasPriceChart({ label, points, granularity, showPrevious }: SeriesChartProps) {
  const data = toPoints(points);
  const ticks = pickTicks(data.map((point) => point.from));
  // A lone bucket with receipts (a new project's first day) is a line of no length: draw it as a dot.
  const lone = isolatedIndexes(data.map((point) => point.value));
  return (
    <div className="w-full" data-testid="gas-price-chart">
      {/* A picture with a name: recharts' keyboard layer (an unnamed role=application tab stop) is off. */}
      <div className="h-64" role="img" aria-label={label}>
        <LineChart
          responsive
          accessibilityLayer={false}
          data={data}
          style={{ width: '100%', height: '100%' }}
          margin={{ top: 8, right: 12, left: 0, bottom: 0 }}
        >
          <CartesianGrid stroke={GRID_COLOR} strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="from"
            ticks={ticks}
            tickFormatter={(iso: string) => bucketTickLabel(iso, granularity)}
            {...axisProps}
          />
          <YAxis
            tickCount={4}
            width={56}
            tickFormatter={(value: number) => `${compactNumber(value)}`}
            {...axisProps}
          />
          <Tooltip
            {...tooltipStyle}
            labelFormatter={(_label, payload) => tooltipLabel(payload)}
            formatter={(value, name) => [
              formatGwei(typeof value === 'number' ? value : null),
              name === 'previousValue' ? 'Previous period' : 'Average gas price',
            ]}
          />
          {showPrevious && (
            <Line
              type="monotone"
              dataKey="previousValue"
              stroke={PREVIOUS_COLOR}
              strokeWidth={2}
              strokeDasharray={PREVIOUS_DASH}
              dot={false}
              connectNulls={false}
              isAnimationActive={false}
            />
          )}
          <Line
            type="monotone"
            dataKey="value"
            stroke={INDIGO_PALETTE[1]}
            strokeWidth={2}
            dot={(props: { cx?: number; cy?: number; index?: number }) =>
              props.index !== undefined &&
              lone.has(props.index) &&
              props.cx !== undefined &&
              props.cy !== undefined ? (
                <circle
                  key={props.index}
                  data-testid="lone-point"
                  cx={props.cx}
                  cy={props.cy}
                  r={4}
                  fill={INDIGO_PALETTE[1]}
                />
              ) : (
                <g key={props.index} />
              )
            }
            connectNulls={false}
            isAnimationActive={false}
          />
        </LineChart>
      </div>
      {showPrevious && <SeriesLegend current="Average gas price" />}
    </div>
  );
}

/** Failed (reverted or failed) transactions per bucket of their request. */
export function FailedTransactionsChart({ label, points, granularity, showPrevious }: SeriesChartProps) {
  const data = toPoints(points);
  const ticks = pickTicks(data.map((point) => point.from));
  const highest = Math.max(
    0,
    ...data.map((point) => Math.max(point.value ?? 0, showPrevious ? (point.previousValue ?? 0) : 0)),
  );
  const yTicks = countTicks(highest);
  return (
    <div className="w-full" data-testid="failed-transactions-chart">
      {/* A picture with a name: recharts' keyboard layer (an unnamed role=application tab stop) is off. */}
      <div className="h-64" role="img" aria-label={label}>
        <ComposedChart
          responsive
          accessibilityLayer={false}
          data={data}
          style={{ width: '100%', height: '100%' }}
          margin={{ top: 8, right: 12, left: 0, bottom: 0 }}
        >
          <CartesianGrid stroke={GRID_COLOR} strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="from"
            ticks={ticks}
            tickFormatter={(iso: string) => bucketTickLabel(iso, granularity)}
            {...axisProps}
          />
          <YAxis
            ticks={yTicks}
            domain={[0, yTicks.at(-1) ?? 1]}
            width={40}
            allowDecimals={false}
            tickFormatter={compactNumber}
            {...axisProps}
          />
          <Tooltip
            {...tooltipStyle}
            cursor={{ fill: '#eef2ff' }}
            labelFormatter={(_label, payload) => tooltipLabel(payload)}
            formatter={(value, name) => [
              formatCount(Number(value)),
              name === 'previousValue' ? 'Previous period' : 'Failed transactions',
            ]}
          />
          <Bar dataKey="value" fill={INDIGO_PALETTE[2]} radius={[3, 3, 0, 0]} isAnimationActive={false} />
          {showPrevious && (
            <Line
              type="monotone"
              dataKey="previousValue"
              stroke={PREVIOUS_COLOR}
              strokeWidth={2}
              strokeDasharray={PREVIOUS_DASH}
              dot={false}
              connectNulls={false}
              isAnimationActive={false}
            />
          )}
        </ComposedChart>
      </div>
      {showPrevious && <SeriesLegend current="Failed transactions" />}
    </div>
  );
}
