import { type Severity, SeverityLabels } from '@polyflow/contracts/incidents';
import { cn } from '../../../components/ui/cn';

/** The original console's severity colours: Low green, Mid amber, High orange, Severe red. */
export const SeverityTones: Record<Severity, { badge: string; dot: string }> = {
  low: { badge: 'bg-emerald-50 text-emerald-800 ring-emerald-200', dot: 'bg-emerald-500' },
  mid: { badge: 'bg-amber-50 text-amber-800 ring-amber-200', dot: 'bg-amber-400' },
  high: { badge: 'bg-orange-50 text-orange-800 ring-orange-200', dot: 'bg-orange-500' },
  severe: { badge: 'bg-red-50 text-red-800 ring-red-200', dot: 'bg-red-600' },
};

export function SeverityBadge({ severity, className }: { severity: Severity; className?: string }) {
  const tone = SeverityTones[severity];
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset',
        tone.badge,
        className,
      )}
    >
      <span aria-hidden="true" className={cn('size-2 rounded-full', tone.dot)} />
      {SeverityLabels[severity]}
    </span>
  );
}
