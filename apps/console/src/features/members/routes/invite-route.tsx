import { useEffect, useRef } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Logo } from '../../../components/ui/logo';
import { Spinner } from '../../../components/ui/spinner';
import { useSession } from '../../../lib/session';
import { readPendingInvitation, writePendingInvitation } from '../../../lib/storage';
import { useAcceptInvitation } from '../api/accept-invitation';

/**
 * `/invite?token=…`, the emailed link. Logged in: joins the project and opens it. Not logged in: keeps
 * the token (this browser) and offers to sign up or log in with the invited address; the console comes
 * back here once there is a session, after the verification link included.
 */
export function InviteRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? readPendingInvitation();
  const session = useSession();
  const accept = useAcceptInvitation();
  const started = useRef(false);

  useEffect(() => {
    if (!token) return;
    if (!session) {
      writePendingInvitation(token);
      return;
    }
    if (started.current) return;
    started.current = true;
    // One try per link: a refused one (used, expired, another address) is not retried on every visit.
    writePendingInvitation(null);
    accept.mutate(token);
  }, [token, session, accept]);

  if (accept.isSuccess) return <Navigate to={`/console/${accept.data.id}/analytics`} replace />;

  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-10">
      <div className="mb-6 flex items-center gap-2 text-indigo-800">
        <Logo />
        <span className="text-xl font-bold tracking-tight">Polyflow</span>
      </div>
      <div className="flex w-full max-w-md flex-col gap-4 rounded-2xl bg-white p-6 shadow-lg ring-1 ring-slate-900/5 sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">Join a project</h1>
        {!token ? (
          <Alert tone="error">This page needs the link from the invitation email.</Alert>
        ) : !session ? (
          <>
            <p className="text-sm text-slate-700">
              You were invited to a Polyflow project. Sign up or log in{' '}
              <strong>with the address the invitation was sent to</strong>; you join the project as soon as
              you are logged in (after verifying your address, for a new account).
            </p>
            <div className="flex flex-wrap gap-2">
              <Link
                to="/?signup"
                className="inline-flex h-10 items-center rounded-lg bg-indigo-700 px-4 text-sm font-semibold text-white hover:bg-indigo-800"
              >
                Sign up
              </Link>
              <Link
                to="/"
                className="inline-flex h-10 items-center rounded-lg px-4 text-sm font-semibold text-indigo-800 ring-1 ring-inset ring-indigo-200 hover:bg-indigo-50"
              >
                Log in
              </Link>
            </div>
          </>
        ) : accept.isError ? (
          <>
            <Alert tone="error">{accept.error.message}</Alert>
            <Link to="/console/analytics" className="text-sm font-semibold text-indigo-800 underline">
              Open the console
            </Link>
          </>
        ) : (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner /> Joining the project…
          </p>
        )}
      </div>
    </main>
  );
}
