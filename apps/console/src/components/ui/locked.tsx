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
 * control the server would refuse. Text and links inside stay readable. Unlocked, it is a plain box: a
 * fieldset without a legend is an unnamed group, which a screen reader announced around each of the SDK
 * screen's nine cards.
 */
export function Locked({ reason, children, className }: LockedProps) {
  if (reason === null) return <div className={cn('min-w-0', className)}>{children}</div>;
  return (
    <fieldset
      disabled
      title={reason}
      aria-description={reason}
      className={cn('m-0 min-w-0 border-0 p-0', className)}
    >
      {children}
    </fieldset>
  );
}
