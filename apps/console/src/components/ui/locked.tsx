import type { ReactNode } from 'react';
import { cn } from './cn';

interface LockedProps {
  /** Why the controls inside cannot be used (the tooltip); null leaves them as they are. */
  reason: string | null;
  children: ReactNode;
  className?: string;
}

/**
 * Disables every control inside (a disabled fieldset) and says why on hover, rather than showing a
 * control the server would refuse. Text and links inside stay readable.
 */
export function Locked({ reason, children, className }: LockedProps) {
  return (
    <fieldset
      disabled={reason !== null}
      title={reason ?? undefined}
      aria-description={reason ?? undefined}
      className={cn('m-0 min-w-0 border-0 p-0', className)}
    >
      {children}
    </fieldset>
  );
}
