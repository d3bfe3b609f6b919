import { useSearchParams } from 'react-router';
import { AuthLayout } from '../components/auth-layout';
import { NewPasswordForm } from '../components/new-password-form';
import { PasswordResetRequestForm } from '../components/password-reset-request-form';

/** Without a token: ask for the email. With the emailed `?token=`: choose a new password. */
export function ForgotPasswordRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  if (token) {
    return (
      <AuthLayout title="Choose a new password" subtitle="Use at least 8 characters.">
        <NewPasswordForm token={token} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Forgot your password?" subtitle="We will email you a link to choose a new one.">
      <PasswordResetRequestForm />
    </AuthLayout>
  );
}
