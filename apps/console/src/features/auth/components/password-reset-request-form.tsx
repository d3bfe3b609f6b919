import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { emailField } from './form-schemas';

const RequestSchema = z.object({ email: emailField });
type RequestForm = z.infer<typeof RequestSchema>;

export function PasswordResetRequestForm() {
  const request = useRequestPasswordReset();
  const form = useForm<RequestForm>({
    resolver: zodResolver(RequestSchema),
    mode: 'onChange',
    defaultValues: { email: '' },
  });
  const { errors, isValid } = form.formState;

  if (request.isSuccess) {
    return (
      <div className="flex flex-col gap-4">
        <Alert tone="success">
          If an account exists for {request.variables}, we sent it a link to reset the password. The link
          works for a limited time.
        </Alert>
        <Link to="/" className="text-sm font-semibold text-indigo-700 hover:underline">
          Back to Log In
        </Link>
      </div>
    );
  }

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(({ email }) => request.mutate(email))}
      className="flex flex-col gap-4"
    >
      <Input
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...form.register('email')}
      />
      {request.error && <Alert tone="error">{request.error.message}</Alert>}
      <Button type="submit" disabled={!isValid} isLoading={request.isPending}>
        Send reset link
      </Button>
      <Link to="/" className="text-center text-sm font-semibold text-indigo-700 hover:underline">
        Back to Log In
      </Link>
    </form>
  );
}
