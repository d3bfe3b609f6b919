import type { ReactNode } from 'react';
import { cn } from './cn';
import { AlertTriangle, CheckCircle2, Info, XCircle } from './icons';

const tones = {
  error: { box: 'bg-red-50 text-red-800 ring-red-200', Icon: XCircle },
  warning: { box: 'bg-amber-50 text-amber-900 ring-amber-200', Icon: AlertTriangle },
  success: { box: 'bg-emerald-50 text-emerald-800 ring-emerald-200', Icon: CheckCircle2 },
  info: { box: 'bg-indigo-50 text-indigo-900 ring-indigo-200', Icon: Info },
} as const;

interface AlertProps {
  /** For a field's `aria-describedby`, when the alert is about that field. */
  id?: string;
  tone?: keyof typeof tones;
  children: ReactNode;
  className?: string;
}

/** Errors are announced at once (role alert); other tones politely (role status). */
export function Alert({ id, tone = 'info', children, className }: AlertProps) {
  const { box, Icon } = tones[tone];
  return (
    <div
      id={id}
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn(
        'flex items-start gap-2 rounded-lg px-3 py-2.5 text-sm ring-1 ring-inset',
        box,
        className,
      )}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0 break-words">{children}</div>
    </div>
  );
}
