import type { ButtonHTMLAttributes, MouseEvent, Ref } from 'react';
import { cn } from './cn';
import { Spinner } from './spinner';

// `aria-disabled:` mirrors `disabled:` so a pending button (focusable, see below) looks like a disabled one.
const variants = {
  // Disabled filled buttons turn grey with dark text (8.4:1) rather than a pale fill under white text (2.01:1).
  primary:
    'bg-indigo-700 text-white shadow-sm hover:bg-indigo-800 disabled:bg-slate-200 disabled:text-slate-700 disabled:shadow-none aria-disabled:bg-slate-200 aria-disabled:text-slate-700 aria-disabled:shadow-none',
  secondary:
    'bg-white text-indigo-800 ring-1 ring-inset ring-indigo-200 hover:bg-indigo-50 disabled:text-slate-500 aria-disabled:text-slate-500',
  ghost: 'text-indigo-800 hover:bg-indigo-50 disabled:text-slate-500 aria-disabled:text-slate-500',
  danger:
    'bg-red-600 text-white shadow-sm hover:bg-red-700 disabled:bg-slate-200 disabled:text-slate-700 disabled:shadow-none aria-disabled:bg-slate-200 aria-disabled:text-slate-700 aria-disabled:shadow-none',
  'danger-outline':
    'bg-white text-red-700 ring-1 ring-inset ring-red-200 hover:bg-red-50 disabled:text-slate-500 aria-disabled:text-slate-500',
} as const;

const sizes = {
  sm: 'h-8 px-3 text-xs',
  md: 'h-10 px-4 text-sm',
  icon: 'size-9',
} as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  /**
   * A request started by this button runs: shows the spinning ring and ignores clicks (and, for a submit
   * button, the form's submission). The button stays focusable, marked `aria-disabled` and `aria-busy`,
   * rather than `disabled`: a disabled button drops keyboard focus to the page's body (WCAG 2.4.3).
   */
  isLoading?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({
  variant = 'primary',
  size = 'md',
  isLoading = false,
  disabled,
  className,
  children,
  type = 'button',
  onClick,
  ref,
  ...props
}: ButtonProps) {
  const ignoreWhilePending = (event: MouseEvent<HTMLButtonElement>) => {
    if (isLoading) {
      // Keeps a submit button from submitting its form again.
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };
  return (
    <button
      ref={ref}
      type={type}
      disabled={disabled && !isLoading}
      aria-disabled={isLoading || undefined}
      aria-busy={isLoading || undefined}
      onClick={ignoreWhilePending}
      className={cn(
        'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        'disabled:cursor-not-allowed aria-disabled:cursor-not-allowed',
        variants[variant],
        sizes[size],
        className,
      )}
      {...props}
    >
      {isLoading && <Spinner />}
      {children}
    </button>
  );
}
