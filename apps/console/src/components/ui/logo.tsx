import { cn } from './cn';

/** The Polyflow mark: a "P" whose stroke flows into a dot. */
export function Logo({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-8', className)}>
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <path
        d="M9 22V10h7a4 4 0 0 1 0 8h-7"
        fill="none"
        stroke="#fff"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="23" cy="22" r="2.5" fill="#a5b4fc" />
    </svg>
  );
}
