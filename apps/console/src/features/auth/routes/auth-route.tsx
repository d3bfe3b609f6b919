import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { focusSoon } from '../../../lib/announce';
import { useSession } from '../../../lib/session';
import { AuthLayout } from '../components/auth-layout';
import { LoginForm } from '../components/login-form';
import { SignupForm } from '../components/signup-form';

/** Root route: Log In by default, Sign Up when the `signup` query parameter is present. */
export function AuthRoute() {
  const [searchParams] = useSearchParams();
  const isSignup = searchParams.has('signup');
  const session = useSession();
  // Log In and Sign Up are one route: the app's move of focus to a new screen's heading does not see the
  // switch (a query string), yet the link that was followed goes with the old form (WCAG 2.4.3).
  const heading = useRef<HTMLHeadingElement>(null);
  const shownForm = useRef(isSignup);
  useEffect(() => {
    if (shownForm.current === isSignup) return;
    shownForm.current = isSignup;
    focusSoon(() => heading.current);
  }, [isSignup]);
  return (
    <AuthLayout
      key={isSignup ? 'signup' : 'login'}
      headingRef={heading}
      title={isSignup ? 'Sign Up' : 'Log In'}
      subtitle={isSignup ? 'Create your Polyflow account.' : 'Welcome back to the Polyflow console.'}
    >
      {session && (
        <Alert tone="info" className="mb-4">
          You are logged in as {session.email}.{' '}
          <Link to="/console/analytics" className="font-semibold underline">
            Open the console
          </Link>
        </Alert>
      )}
      {isSignup ? <SignupForm /> : <LoginForm />}
    </AuthLayout>
  );
}
