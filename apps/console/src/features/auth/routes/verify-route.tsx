import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { MailCheck } from '../../../components/ui/icons';
import { focusSoon } from '../../../lib/announce';
import { AuthLayout } from '../components/auth-layout';
import { ResendVerification } from '../components/resend-verification';
import { VerifyCodeForm } from '../components/verify-code-form';

/**
 * `?token=` (the emailed link): confirm the prefilled code. `?email=` (after sign-up or an unverified
 * login): tell the user where the email went, offer a resend and a place to type the short code. Neither
 * (someone opened /verify by hand): ask for the email beside the code.
 */
export function VerifyRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const email = searchParams.get('email');
  const [isVerified, setIsVerified] = useState(false);
  // The form, and the focused Confirm with it, gives way to the success screen: focus its heading, which
  // reads "Email verified" (WCAG 2.4.3, 4.1.3).
  const onVerified = () => {
    setIsVerified(true);
    focusSoon(() => document.querySelector<HTMLElement>('main h1'));
  };

  if (isVerified) {
    return (
      <AuthLayout title="Email verified">
        <div className="flex flex-col items-center gap-4 text-center">
          <MailCheck aria-hidden="true" className="size-10 text-emerald-600" />
          <p className="text-base font-semibold text-slate-900">Succesfully verified email.</p>
          <Link
            to="/"
            className="inline-flex h-10 items-center rounded-lg bg-indigo-700 px-6 text-sm font-semibold text-white hover:bg-indigo-800"
          >
            Log in
          </Link>
        </div>
      </AuthLayout>
    );
  }

  if (token !== null || email === null) {
    return (
      <AuthLayout title="Please verify your email" subtitle="Confirm the code from your verification email.">
        <VerifyCodeForm initialCode={token ?? ''} email={null} onVerified={onVerified} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="You must verify your email"
      subtitle={<p>Check {email} for a verification link or code.</p>}
    >
      <div className="flex flex-col gap-6">
        {/* The shell's warning (spec §2) would never be seen: an unverified login lands here instead. */}
        <Alert tone="warning">In order to use Polyflow, you must verify your email!</Alert>
        <ResendVerification email={email} />
        <div className="border-t border-slate-200 pt-5">
          <p className="mb-3 text-xs font-semibold uppercase tracking-wide text-indigo-600">Have a code?</p>
          <VerifyCodeForm initialCode="" email={email} onVerified={onVerified} />
        </div>
      </div>
    </AuthLayout>
  );
}
