import { Bar, BarChart, CartesianGrid, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatPercent } from '../../../../lib/format';
import {
  AXIS_COLOR,
  compactNumber,
  countTicks,
  GRID_COLOR,
  INDIGO_PALETTE,
  UNKNOWN_COLOR,
} from '../../lib/chart-axis';
import { formatCount } from '../../lib/format';

/*
 * The distribution chart group: one lazy chunk (with recharts). Each chart has a legend that lists
 * every slice with its count and share, so the figures are readable without hovering (and by screen readers).
 */

export interface Slice {
  name: string;
  value: number;
  isUnknown: boolean;
  /** The slices past the first few, folded into one (lib/top-n.ts): grey, like unknown. */
  isOther?: boolean;
}

const colorOf = (slice: Slice, index: number) =>
  slice.isUnknown || slice.isOther
    ? UNKNOWN_COLOR
    : (INDIGO_PALETTE[index % INDIGO_PALETTE.length] ?? '#6366f1');

const tooltipStyle = {
  contentStyle: { borderRadius: 8, border: '1px solid #e0e7ff', fontSize: 12 },
  // recharts writes each item in its series' colour: pale indigo on white is below WCAG AA (1.99:1).
  itemStyle: { color: '#334155' },
} as const;

function Legend({ slices, unit }: { slices: Slice[]; unit: string }) {
  const total = slices.reduce((sum, slice) => sum + slice.value, 0);
  return (
    <ul className="flex min-w-0 flex-1 flex-col gap-1.5 text-xs" aria-label={`${unit} by share`}>
      {slices.map((slice, index) => (
        <li key={slice.name} className="flex items-center gap-2">
          <span
            aria-hidden="true"
            className="size-2.5 shrink-0 rounded-sm"
            style={{ background: colorOf(slice, index) }}
          />
          <span className="min-w-0 flex-1 wrap-anywhere text-slate-700">{slice.name}</span>
          <span className="font-semibold text-slate-900 tabular-nums">{formatCount(slice.value)}</span>
          <span className="w-12 text-right text-slate-600 tabular-nums">
            {formatPercent(total > 0 ? slice.value / total : null)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A donut with its legend beside it (below it on phones). */
export function SharePie({ slices, unit }: { slices: Slice[]; unit: string }) {
  const data = slices.map((slice, index) => ({ ...slice, fill: colorOf(slice, index) }));
  return (
    <div className="flex flex-col items-center gap-4 sm:flex-row">
      <div className="size-44 shrink-0">
        <PieChart responsive style={{ width: '100%', height: '100%' }}>
          <Pie
            data={data}
            dataKey="value"
            nameKey="name"
            innerRadius="55%"
            outerRadius="95%"
            paddingAngle={1}
            stroke="#fff"
            isAnimationActive={false}
          />
          <Tooltip
            {...tooltipStyle}
            formatter={(value, name) => [formatCount(Number(value)), String(name)]}
          />
        </PieChart>
      </div>
      <Legend slices={slices} unit={unit} />
    </div>
  );
}

/** Horizontal bars, largest first: for long category names such as countries. */
export function ShareBars({ slices, unit }: { slices: Slice[]; unit: string }) {
  const height = Math.max(120, slices.length * 30 + 30);
  const ticks = countTicks(Math.max(0, ...slices.map((slice) => slice.value)));
  return (
    <div className="w-full" style={{ height }}>
      <BarChart
        responsive
        layout="vertical"
        data={slices}
        style={{ width: '100%', height: '100%' }}
        margin={{ top: 0, right: 16, left: 0, bottom: 0 }}
      >
        <CartesianGrid stroke={GRID_COLOR} strokeDasharray="3 3" horizontal={false} />
        <XAxis
          type="number"
          ticks={ticks}
          domain={[0, ticks.at(-1) ?? 1]}
          allowDecimals={false}
          tickFormatter={compactNumber}
          stroke={AXIS_COLOR}
          tick={{ fontSize: 11, fill: AXIS_COLOR }}
          tickLine={false}
          axisLine={{ stroke: GRID_COLOR }}
        />
        <YAxis
          type="category"
          dataKey="name"
          width={110}
          interval={0}
          stroke={AXIS_COLOR}
          tick={{ fontSize: 11, fill: '#334155' }}
          tickLine={false}
          axisLine={false}
        />
        <Tooltip
          {...tooltipStyle}
          cursor={{ fill: '#eef2ff' }}
          formatter={(value) => [formatCount(Number(value)), unit]}
        />
        <Bar dataKey="value" fill={INDIGO_PALETTE[1]} radius={[0, 3, 3, 0]} isAnimationActive={false} />
      </BarChart>
    </div>
  );
}
