import type { ReactNode } from 'react';
import { cn } from './cn';

export function Badge({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full bg-indigo-50 px-2.5 py-0.5 text-[0.7rem] font-semibold uppercase tracking-wide text-indigo-700 ring-1 ring-inset ring-indigo-200',
        className,
      )}
    >
      {children}
    </span>
  );
}
