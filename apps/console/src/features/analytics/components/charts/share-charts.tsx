import type { AnalyticsFilterKey } from '@polyflow/contracts/analytics';
import { type KeyboardEvent, useId } from 'react';
import { Bar, BarChart, CartesianGrid, LabelList, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts';
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
import { FILTER_LABELS, FilterButton, useFilterSelect } from '../filter-select';

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
  /** The value a click filters the screen by (the share's key); absent for Unknown and Other. */
  filterValue?: string;
}

/** The card's filter: clicking a slice, a bar or its label adds the slice's value to the screen's filters. */
type Selectable = { filterName?: AnalyticsFilterKey };

function useSliceSelect(filterName: AnalyticsFilterKey | undefined) {
  const select = useFilterSelect();
  if (!select || !filterName) return null;
  return (slice: Slice | undefined) => {
    if (slice?.filterValue !== undefined) select(filterName, slice.filterValue);
  };
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

function Legend({ slices, unit, filterName }: { slices: Slice[]; unit: string } & Selectable) {
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
          <span className="min-w-0 flex-1 wrap-anywhere text-slate-700">
            {filterName && slice.filterValue !== undefined ? (
              <FilterButton name={filterName} value={slice.filterValue}>
                {slice.name}
              </FilterButton>
            ) : (
              slice.name
            )}
          </span>
          <span className="font-semibold text-slate-900 tabular-nums">{formatCount(slice.value)}</span>
          <span className="w-12 text-right text-slate-600 tabular-nums">
            {formatPercent(total > 0 ? slice.value / total : null)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * A donut with its legend beside it (below it on phones). The legend lists every value and filters by
 * its buttons, so the donut is a named picture and no tab stop (recharts' keyboard layer and the pie's
 * own tabindex would add two unnamed ones).
 */
export function SharePie({
  title,
  slices,
  unit,
  filterName,
}: { title: string; slices: Slice[]; unit: string } & Selectable) {
  const data = slices.map((slice, index) => ({ ...slice, fill: colorOf(slice, index) }));
  const onSelect = useSliceSelect(filterName);
  return (
    <div className="flex flex-col items-center gap-4 sm:flex-row">
      <div className="size-44 shrink-0" role="img" aria-label={`${title}, donut chart: ${describe(slices)}`}>
        <PieChart responsive accessibilityLayer={false} style={{ width: '100%', height: '100%' }}>
          <Pie
            rootTabIndex={-1}
            data={data}
            dataKey="value"
            nameKey="name"
            innerRadius="55%"
            outerRadius="95%"
            paddingAngle={1}
            stroke="#fff"
            isAnimationActive={false}
            {...(onSelect && {
              onClick: (_: unknown, index: number) => onSelect(slices[index]),
              className: 'cursor-pointer',
            })}
          />
          <Tooltip
            {...tooltipStyle}
            formatter={(value, name) => [formatCount(Number(value)), String(name)]}
          />
        </PieChart>
      </div>
      <Legend slices={slices} unit={unit} filterName={filterName} />
    </div>
  );
}

/** "MetaMask 40 (50%), Rabby 40 (50%)": a chart's slices in words. */
function describe(slices: Slice[]) {
  const total = slices.reduce((sum, slice) => sum + slice.value, 0);
  return slices
    .map(
      (slice) =>
        `${slice.name} ${formatCount(slice.value)} (${formatPercent(total > 0 ? slice.value / total : null)})`,
    )
    .join(', ');
}

/**
 * Horizontal bars, largest first: for long category names such as countries. Each bar's count is
 * written at its end (not only in the hover tooltip); the labels are the keyboard's filter buttons.
 * Unlike the donut it cannot be one named picture (its labels are buttons), and in the SVG the counts come
 * after every label, far from their names: a figure named "Countries, bar chart" holds the figures in
 * words (WCAG 1.1.1), and each label button is described by its count.
 */
export function ShareBars({
  title,
  slices,
  unit,
  filterName,
}: { title: string; slices: Slice[]; unit: string } & Selectable) {
  const onSelect = useSliceSelect(filterName);
  const height = Math.max(120, slices.length * 30 + 30);
  const ticks = countTicks(Math.max(0, ...slices.map((slice) => slice.value)));
  const figuresId = useId();
  return (
    <figure
      aria-label={`${title}, bar chart`}
      aria-describedby={figuresId}
      className="w-full"
      style={{ height }}
    >
      <p id={figuresId} className="sr-only">
        {describe(slices)}
      </p>
      <BarChart
        responsive
        accessibilityLayer={false}
        title={title}
        layout="vertical"
        data={slices}
        style={{ width: '100%', height: '100%' }}
        margin={{ top: 0, right: 48, left: 0, bottom: 0 }}
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
          tick={
            onSelect && filterName
              ? (props: TickProps) => (
                  <SelectableTick
                    {...props}
                    slices={slices}
                    unit={unit}
                    filterName={filterName}
                    onSelect={onSelect}
                  />
                )
              : { fontSize: 11, fill: '#334155' }
          }
          tickLine={false}
          axisLine={false}
        />
        <Tooltip
          {...tooltipStyle}
          cursor={{ fill: '#eef2ff' }}
          formatter={(value) => [formatCount(Number(value)), unit]}
        />
        <Bar
          dataKey="value"
          fill={INDIGO_PALETTE[1]}
          radius={[0, 3, 3, 0]}
          isAnimationActive={false}
          {...(onSelect && {
            onClick: (_: unknown, index: number) => onSelect(slices[index]),
            className: 'cursor-pointer',
          })}
        >
          <LabelList
            dataKey="value"
            position="right"
            fontSize={11}
            fill="#334155"
            formatter={(value: unknown) => formatCount(Number(value))}
          />
        </Bar>
      </BarChart>
    </figure>
  );
}

type TickProps = { x?: number | string; y?: number | string; payload?: { value?: unknown; index?: number } };

/**
 * A bar's label as a button (SVG has none): focusable, Enter or Space filters by its value, as a click
 * on the label or the bar does. Unknown and Other are plain labels.
 */
function SelectableTick({
  x,
  y,
  payload,
  slices,
  unit,
  filterName,
  onSelect,
}: TickProps & {
  slices: Slice[];
  unit: string;
  filterName: AnalyticsFilterKey;
  onSelect: (slice: Slice | undefined) => void;
}) {
  const slice = slices[payload?.index ?? -1];
  const label = String(payload?.value ?? '');
  const isSelectable = slice?.filterValue !== undefined;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    onSelect(slice);
  };
  return (
    <text
      x={Number(x) - 4}
      y={Number(y)}
      dy="0.355em"
      textAnchor="end"
      fontSize={11}
      fill={isSelectable ? '#3730a3' : '#334155'}
      {...(isSelectable && {
        role: 'button',
        tabIndex: 0,
        // Named as every other filter button: "Filter by Country: United States".
        'aria-label': `Filter by ${FILTER_LABELS[filterName]}: ${label}`,
        // The bar's count, which the SVG writes after every label, far from this one.
        'aria-description': `${formatCount(slice.value)} ${unit.toLowerCase()}`,
        className: 'cursor-pointer hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600',
        onClick: () => onSelect(slice),
        onKeyDown,
      })}
    >
      {label.length > 18 ? `${label.slice(0, 17)}…` : label}
    </text>
  );
}
