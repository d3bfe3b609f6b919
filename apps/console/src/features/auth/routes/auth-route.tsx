import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { useSession } from '../../../lib/session';
import { AuthLayout } from '../components/auth-layout';
import { LoginForm } from '../components/login-form';
import { SignupForm } from '../components/signup-form';

/** Root route: Log In by default, Sign Up when the `signup` query parameter is present. */
export function AuthRoute() {
  const [searchParams] = useSearchParams();
  const isSignup = searchParams.has('signup');
  const session = useSession();
  return (
    <AuthLayout
      key={isSignup ? 'signup' : 'login'}
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
