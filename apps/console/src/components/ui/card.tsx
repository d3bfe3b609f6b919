import type { HTMLAttributes, ReactNode, Ref } from 'react';
import { cn } from './cn';

export function Card({ className, ref, ...props }: HTMLAttributes<HTMLElement> & { ref?: Ref<HTMLElement> }) {
  return (
    <section
      ref={ref}
      className={cn('rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-900/5 sm:p-6', className)}
      {...props}
    />
  );
}

interface CardHeaderProps {
  title: string;
  /** Small uppercase label above the title. */
  eyebrow?: string;
  description?: ReactNode;
  actions?: ReactNode;
  titleId?: string;
}

export function CardHeader({ title, eyebrow, description, actions, titleId }: CardHeaderProps) {
  return (
    <header className="mb-4 flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        {eyebrow && (
          <p className="text-[0.7rem] font-semibold uppercase tracking-widest text-indigo-600">{eyebrow}</p>
        )}
        <h2 id={titleId} className="text-lg font-bold text-slate-900">
          {title}
        </h2>
        {description && <div className="mt-1 text-sm text-slate-600">{description}</div>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
    </header>
  );
}
