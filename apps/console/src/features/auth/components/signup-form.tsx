import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { writeCurrentProject } from '../../../lib/storage';
import { useRegister } from '../api/register';
import { type CredentialsForm, CredentialsFormSchema } from './form-schemas';

export function SignupForm() {
  const navigate = useNavigate();
  const register = useRegister();
  const form = useForm<CredentialsForm>({
    resolver: zodResolver(CredentialsFormSchema),
    mode: 'onChange',
    defaultValues: { email: '', password: '' },
  });
  const { errors, isValid } = form.formState;

  const onSubmit = (values: CredentialsForm) => {
    writeCurrentProject(null);
    register.mutate(values, {
      // Registration answers with no session: the account must be verified first.
      onSuccess: () => navigate(`/verify?email=${encodeURIComponent(values.email)}`),
      onError: (error) => window.alert(error.message),
    });
  };

  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="flex flex-col gap-4">
      <Input
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...form.register('email')}
      />
      <Input
        label="Password"
        type="password"
        autoComplete="new-password"
        hint={errors.password ? undefined : 'At least 8 characters.'}
        error={errors.password?.message}
        {...form.register('password')}
      />
      {register.error && <Alert tone="error">{register.error.message}</Alert>}
      <Button type="submit" disabled={!isValid} isLoading={register.isPending}>
        Sign Up
      </Button>
      <p className="text-center text-sm text-slate-600">
        <Link to="/" className="font-semibold text-indigo-700 hover:underline">
          Already have an account? Log in here
        </Link>
      </p>
    </form>
  );
}
