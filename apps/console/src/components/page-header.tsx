import type { ReactNode } from 'react';
import { CircleHelp } from './ui/icons';

export function PageHeader({
  title,
  eyebrow,
  help,
  children,
}: {
  title: string;
  eyebrow?: string;
  /** The documentation page that explains this screen (components/docs-links.ts), opened in a new tab. */
  help?: { href: string; topic: string };
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3 px-1">
      <div>
        {eyebrow && (
          <p className="text-[0.7rem] font-semibold uppercase tracking-widest text-indigo-600">{eyebrow}</p>
        )}
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
          {help && (
            <a
              href={help.href}
              target="_blank"
              rel="noreferrer"
              aria-label={`Help: ${help.topic} (documentation, opens in a new tab)`}
              className="inline-flex items-center gap-1 rounded-md text-sm font-medium text-indigo-700 hover:text-indigo-900 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <CircleHelp aria-hidden="true" className="size-4" />
              Help
            </a>
          )}
        </div>
      </div>
      {children}
    </div>
  );
}
