import type { ReactNode, Ref } from 'react';
import { Logo } from '../../../components/ui/logo';
import { useDocumentTitle } from '../../../hooks/use-document-title';

/**
 * The centred card of the auth, verify and password screens, with the spec's 90 ms fade. Its heading is
 * also the page's title ("Sign Up · Polyflow").
 */
export function AuthLayout({
  title,
  subtitle,
  headingRef,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  headingRef?: Ref<HTMLHeadingElement>;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-10">
      <div className="mb-6 flex items-center gap-2 text-indigo-800">
        <Logo />
        <span className="text-xl font-bold tracking-tight">Polyflow</span>
        <span className="rounded-md bg-indigo-800 px-1.5 py-0.5 text-[0.65rem] font-semibold tracking-widest text-white">
          CONSOLE
        </span>
      </div>
      <div className="w-full max-w-md animate-fade rounded-2xl bg-white p-6 shadow-lg ring-1 ring-slate-900/5 sm:p-8">
        <h1 ref={headingRef} className="text-2xl font-bold text-slate-900">
          {title}
        </h1>
        {subtitle && <div className="mt-1 text-sm text-slate-600">{subtitle}</div>}
        <div className="mt-6">{children}</div>
      </div>
      <p className="mt-6 max-w-md text-center text-xs text-slate-500">
        See what happens between your users' wallets and your dapp.
      </p>
    </main>
  );
}
