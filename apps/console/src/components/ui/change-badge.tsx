import { type Comparison, describeComparison } from '../../lib/comparison';
import { cn } from './cn';
import { ArrowDownRight, ArrowRight, ArrowUpRight, Minus } from './icons';

interface ChangeBadgeProps {
  comparison: Comparison;
  /** Which way is good news: up for wallets, down for a fail rate. Neutral colours when unset. */
  better?: 'up' | 'down';
  className?: string;
}

/** The change against the previous period: an arrow and a percentage, or a neutral mark with nothing to compare. */
export function ChangeBadge({ comparison, better, className }: ChangeBadgeProps) {
  const spoken = `${describeComparison(comparison)} vs previous period`;
  if (!comparison.hasChange) {
    return (
      <span
        data-testid="change"
        data-direction="none"
        title="Nothing to compare with in the previous period"
        className={cn('inline-flex items-center gap-0.5 text-xs font-semibold text-slate-500', className)}
      >
        <Minus aria-hidden="true" className="size-3.5" />
        <span className="sr-only">{spoken}</span>
      </span>
    );
  }
  const { direction, magnitude } = comparison;
  const Icon = direction === 'up' ? ArrowUpRight : direction === 'down' ? ArrowDownRight : ArrowRight;
  const tone =
    direction === 'flat' || !better
      ? 'bg-slate-100 text-slate-700'
      : direction === better
        ? 'bg-emerald-50 text-emerald-800'
        : 'bg-red-50 text-red-800';
  return (
    <span
      data-testid="change"
      data-direction={direction}
      className={cn(
        'inline-flex items-center gap-0.5 rounded-full px-1.5 py-0.5 text-xs font-semibold tabular-nums whitespace-nowrap',
        tone,
        className,
      )}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      <span aria-hidden="true">{magnitude}</span>
      <span className="sr-only">{spoken}</span>
    </span>
  );
}
