import { forwardRef, type InputHTMLAttributes, useId } from 'react';
import { cn } from './cn';
import { WholeDates } from './whole-dates';

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** Shown under the field and linked to it for screen readers. */
  error?: string | undefined;
  hint?: string | undefined;
  /** Keeps the label for assistive technology but hides it visually. */
  hideLabel?: boolean;
}

export const Input = forwardRef<HTMLInputElement, InputProps>(function Input(
  { label, error, hint, hideLabel = false, className, id, ...props },
  ref,
) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const messageId = `${inputId}-message`;
  const message = error ?? hint;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label
        htmlFor={inputId}
        className={cn('text-xs font-semibold uppercase tracking-wide text-slate-600', hideLabel && 'sr-only')}
      >
        {label}
      </label>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={message ? messageId : undefined}
        className={cn(
          'h-10 w-full rounded-lg border bg-white px-3 text-sm text-slate-900',
          'focus:outline-2 focus:outline-offset-0 focus:outline-indigo-500',
          error ? 'border-red-400' : 'border-slate-300',
          'read-only:bg-slate-50',
        )}
        {...props}
      />
      {message && (
        <p id={messageId} className={cn('text-xs', error ? 'text-red-600' : 'text-slate-500')}>
          <WholeDates text={message} />
        </p>
      )}
    </div>
  );
});
