import type { ButtonHTMLAttributes } from 'react';
import { cn } from './cn';
import { Spinner } from './spinner';

const variants = {
  // Disabled filled buttons turn grey with dark text (8.4:1) rather than a pale fill under white text (2.01:1).
  primary:
    'bg-indigo-700 text-white shadow-sm hover:bg-indigo-800 disabled:bg-slate-200 disabled:text-slate-700 disabled:shadow-none',
  secondary:
    'bg-white text-indigo-800 ring-1 ring-inset ring-indigo-200 hover:bg-indigo-50 disabled:text-slate-500',
  ghost: 'text-indigo-800 hover:bg-indigo-50 disabled:text-slate-500',
  danger:
    'bg-red-600 text-white shadow-sm hover:bg-red-700 disabled:bg-slate-200 disabled:text-slate-700 disabled:shadow-none',
  'danger-outline':
    'bg-white text-red-700 ring-1 ring-inset ring-red-200 hover:bg-red-50 disabled:text-slate-500',
} as const;

const sizes = {
  sm: 'h-8 px-3 text-xs',
  md: 'h-10 px-4 text-sm',
  icon: 'size-9',
} as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  /** Shows the spinning ring and blocks clicks while a request runs. */
  isLoading?: boolean;
}

export function Button({
  variant = 'primary',
  size = 'md',
  isLoading = false,
  disabled,
  className,
  children,
  type = 'button',
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || isLoading}
      aria-busy={isLoading || undefined}
      className={cn(
        'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        'disabled:cursor-not-allowed',
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
