import type { ReactNode } from 'react';

export function EmptyState({
  icon,
  title,
  children,
  isPageHeading = false,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  /** The screen's only heading (a screen that is nothing but this state): its title is the page's h1. */
  isPageHeading?: boolean;
}) {
  const Title = isPageHeading ? 'h1' : 'p';
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl bg-slate-50 px-6 py-10 text-center ring-1 ring-inset ring-slate-200">
      <div className="flex size-12 items-center justify-center rounded-full bg-indigo-100 text-indigo-700">
        {icon}
      </div>
      <Title className="text-base font-semibold text-slate-900">{title}</Title>
      {children && <div className="max-w-md text-sm text-slate-600">{children}</div>}
    </div>
  );
}
