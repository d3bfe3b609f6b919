import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { useResetPassword } from '../api/reset-password';
import { passwordField } from './form-schemas';

const NewPasswordSchema = z.object({ newPassword: passwordField });
type NewPasswordFormValues = z.infer<typeof NewPasswordSchema>;

export function NewPasswordForm({ token }: { token: string }) {
  const reset = useResetPassword();
  const form = useForm<NewPasswordFormValues>({
    resolver: zodResolver(NewPasswordSchema),
    mode: 'onChange',
    defaultValues: { newPassword: '' },
  });
  const { errors, isValid } = form.formState;

  if (reset.isSuccess) {
    return (
      <div className="flex flex-col gap-4">
        <Alert tone="success">Your password has been changed. You can log in with it now.</Alert>
        <Link
          to="/"
          className="inline-flex h-10 items-center justify-center rounded-lg bg-indigo-700 px-6 text-sm font-semibold text-white hover:bg-indigo-800"
        >
          Log in
        </Link>
      </div>
    );
  }

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(({ newPassword }) => reset.mutate({ token, newPassword }))}
      className="flex flex-col gap-4"
    >
      <Input
        label="New password"
        type="password"
        autoComplete="new-password"
        error={errors.newPassword?.message}
        {...form.register('newPassword')}
      />
      {reset.error && (
        <Alert tone="error">
          {reset.error.message}{' '}
          {reset.error.errorCode === 'USER_SECURE_TOKEN_INVALID' && (
            <Link to="/forgot-password" className="font-semibold underline">
              Request a new link
            </Link>
          )}
        </Alert>
      )}
      <Button type="submit" disabled={!isValid} isLoading={reset.isPending}>
        Set new password
      </Button>
    </form>
  );
}
