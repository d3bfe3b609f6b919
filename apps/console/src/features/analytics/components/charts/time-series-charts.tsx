import type { AverageBucket, TimeBucket } from '@polyflow/contracts/analytics';
import { Bar, BarChart, CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
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
import { formatCount, formatGwei, weiToGwei } from '../../lib/format';

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
  labelStyle: { color: '#312e81', fontWeight: 600 },
} as const;

interface Point {
  from: string;
  to: string;
  value: number | null;
}

function toPoints(buckets: readonly Point[]) {
  return buckets.map((bucket) => ({ ...bucket, label: bucketRangeLabel(bucket.from, bucket.to) }));
}

/** Average effective gas price per bucket, in gwei; gaps (no mined transaction) break the line. */
export function GasPriceChart({ buckets, granularity }: { buckets: AverageBucket[]; granularity: string }) {
  const data = toPoints(
    buckets.map((bucket) => ({ ...bucket, value: bucket.value === null ? null : weiToGwei(bucket.value) })),
  );
  const ticks = pickTicks(data.map((point) => point.from));
  // A lone bucket with receipts (a new project's first day) is a line of no length: draw it as a dot.
  const lone = isolatedIndexes(data.map((point) => point.value));
  return (
    <div className="h-64 w-full" data-testid="gas-price-chart">
      <LineChart
        responsive
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
          labelFormatter={(_label, payload) => payload?.[0]?.payload?.label ?? ''}
          formatter={(value) => [formatGwei(typeof value === 'number' ? value : null), 'Average gas price']}
        />
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
  );
}

/** Failed (reverted or failed) transactions per bucket of their request. */
export function FailedTransactionsChart({
  buckets,
  granularity,
}: {
  buckets: TimeBucket[];
  granularity: string;
}) {
  const data = toPoints(buckets);
  const ticks = pickTicks(data.map((point) => point.from));
  const yTicks = countTicks(Math.max(0, ...data.map((point) => point.value ?? 0)));
  return (
    <div className="h-64 w-full" data-testid="failed-transactions-chart">
      <BarChart
        responsive
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
          labelFormatter={(_label, payload) => payload?.[0]?.payload?.label ?? ''}
          formatter={(value) => [formatCount(Number(value)), 'Failed transactions']}
        />
        <Bar dataKey="value" fill={INDIGO_PALETTE[2]} radius={[3, 3, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </div>
  );
}
