import { useEffect, useRef, useState } from 'react';
import { cn } from './cn';
import { Check, Copy } from './icons';

/** How long the check icon stays after a copy (spec §9). */
export const COPY_CONFIRMATION_MS = 500;

async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied (e.g. plain http on a LAN address): fall through to the selection-based copy.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand?.('copy') ?? false;
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

interface CopyButtonProps {
  text: string;
  label: string;
  className?: string;
}

export function CopyButton({ text, label, className }: CopyButtonProps) {
  const [isCopied, setIsCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onClick = async () => {
    await copyText(text);
    setIsCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setIsCopied(false), COPY_CONFIRMATION_MS);
  };

  return (
    <button
      type="button"
      aria-label={label}
      title={isCopied ? 'Copied' : label}
      onClick={onClick}
      className={cn(
        'inline-flex size-9 shrink-0 items-center justify-center rounded-lg bg-white text-indigo-700 ring-1 ring-inset ring-indigo-200 transition-colors hover:bg-indigo-50',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        className,
      )}
    >
      {isCopied ? (
        <Check aria-hidden="true" data-testid="copied-icon" className="size-4 text-emerald-600" />
      ) : (
        <Copy aria-hidden="true" data-testid="copy-icon" className="size-4" />
      )}
      <span className="sr-only" aria-live="polite">
        {isCopied ? 'Copied' : ''}
      </span>
    </button>
  );
}
