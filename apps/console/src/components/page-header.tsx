import type { ReactNode } from 'react';

export function PageHeader({
  title,
  eyebrow,
  children,
}: {
  title: string;
  eyebrow?: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3 px-1">
      <div>
        {eyebrow && (
          <p className="text-[0.7rem] font-semibold uppercase tracking-widest text-indigo-600">{eyebrow}</p>
        )}
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      </div>
      {children}
    </div>
  );
}
