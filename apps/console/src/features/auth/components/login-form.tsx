import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { noteLogin, safeReturnPath } from '../../../lib/return-path';
import { writeCurrentProject, writeSession } from '../../../lib/storage';
import { useLogin } from '../api/login';
import { type CredentialsForm, CredentialsFormSchema } from './form-schemas';

export function LoginForm() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  // A deep link opened without a session (the console guard's `next`): opened after the login.
  const next = safeReturnPath(searchParams.get('next'));
  const login = useLogin();
  const form = useForm<CredentialsForm>({
    resolver: zodResolver(CredentialsFormSchema),
    mode: 'onChange',
    defaultValues: { email: '', password: '' },
  });
  const { errors, isValid } = form.formState;
  // Spec §8 clears the password after a failed login; "Password is required" under the server's message
  // would then blame the user for what the form did. It shows again once the user edits the field.
  const [isPasswordClearedByUs, setIsPasswordClearedByUs] = useState(false);
  const loginErrorId = useId();

  const onSubmit = (values: CredentialsForm) => {
    // Spec §4: the current project is cleared before a login, so the switcher asks again.
    writeCurrentProject(null);
    login.mutate(values, {
      onSuccess: (session) => {
        writeSession(session);
        noteLogin();
        navigate(next ?? '/console/analytics');
      },
      onError: (error) => {
        form.setValue('password', '', { shouldValidate: true });
        setIsPasswordClearedByUs(true);
        // The server's unverified message contains "verified" (spec §8); its code is the reliable signal.
        if (error.errorCode === 'USER_NOT_YET_VERIFIED' || error.message.includes('verified')) {
          navigate(`/verify?email=${encodeURIComponent(values.email)}`);
          return;
        }
        // The emptied form disables Log In, which had focus: without this it falls to the page's body and the
        // next Tab starts over at the top (WCAG 2.4.3). The field to type into again takes it, described by
        // the server's message.
        form.setFocus('password');
      },
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
        autoComplete="current-password"
        error={isPasswordClearedByUs ? undefined : errors.password?.message}
        {...(isPasswordClearedByUs && login.error && { 'aria-describedby': loginErrorId })}
        {...form.register('password', { onChange: () => setIsPasswordClearedByUs(false) })}
      />
      <Link to="/forgot-password" className="self-end text-xs font-semibold text-indigo-700 hover:underline">
        Forgot your password?
      </Link>
      {login.error && (
        <Alert id={loginErrorId} tone="error">
          {login.error.message}
        </Alert>
      )}
      <Button type="submit" disabled={!isValid} isLoading={login.isPending}>
        Log In
      </Button>
      <p className="text-center text-sm text-slate-600">
        <Link to="/?signup" className="font-semibold text-indigo-700 hover:underline">
          Don't have an account? Sign up here
        </Link>
      </p>
    </form>
  );
}
