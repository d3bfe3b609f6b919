import type { ReactNode } from 'react';

export function EmptyState({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl bg-slate-50 px-6 py-10 text-center ring-1 ring-inset ring-slate-200">
      <div className="flex size-12 items-center justify-center rounded-full bg-indigo-100 text-indigo-700">
        {icon}
      </div>
      <p className="text-base font-semibold text-slate-900">{title}</p>
      {children && <div className="max-w-md text-sm text-slate-600">{children}</div>}
    </div>
  );
}
