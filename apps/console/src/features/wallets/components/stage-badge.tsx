import { LifecycleStageLabels, type LifecycleStageName } from '@polyflow/contracts/wallets';
import { cn } from '../../../components/ui/cn';

const TONES: Record<LifecycleStageName, string> = {
  NEW: 'bg-sky-50 text-sky-800 ring-sky-200',
  RESURRECTED: 'bg-violet-50 text-violet-800 ring-violet-200',
  POWER: 'bg-indigo-50 text-indigo-800 ring-indigo-200',
  ACTIVE: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  AT_RISK: 'bg-amber-50 text-amber-800 ring-amber-200',
  CHURNED: 'bg-slate-100 text-slate-700 ring-slate-300',
};

export function StageBadge({ stage, className }: { stage: LifecycleStageName; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset',
        TONES[stage],
        className,
      )}
    >
      {LifecycleStageLabels[stage]}
    </span>
  );
}
