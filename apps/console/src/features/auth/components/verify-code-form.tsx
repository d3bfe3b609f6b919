import { isShortCode, normalizeShortCode } from '@polyflow/contracts/auth';
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { writeSession } from '../../../lib/storage';
import { useVerifyEmail } from '../api/verify-email';

type Props = {
  initialCode: string;
  /** Known from sign-up or log-in; when null, an Email field asks for it (a short code needs it). */
  email: string | null;
  onVerified: () => void;
};

/**
 * The Verification code input: the link's token (prefilled from the link, sent as given) or the short
 * code from the email (`ABCD-EFGH`), which the server looks up by the account's email.
 */
export function VerifyCodeForm({ initialCode, email, onVerified }: Props) {
  const [code, setCode] = useState(initialCode);
  const [typedEmail, setTypedEmail] = useState('');
  const verify = useVerifyEmail();
  const codeId = useId();
  const errorId = `${codeId}-error`;
  const hint = initialCode === '' ? 'The 8-character code from the email, like ABCD-EFGH.' : undefined;
  const accountEmail = (email ?? typedEmail).trim();
  const isShort = isShortCode(code);
  const canSubmit = code.trim() !== '' && (!isShort || accountEmail !== '');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    const body = isShort ? { email: accountEmail, code: normalizeShortCode(code) } : { token: code.trim() };
    verify.mutate(body, {
      onSuccess: (session) => {
        // Verifying logs the user in; the success state still offers the Log in link of the spec.
        writeSession(session);
        onVerified();
      },
      // The server's message inline, as the login form shows it (spec §8 alerted the error's JSON,
      // which read as a crash); the typed code stays for the user to correct.
    });
  };

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      {email === null && initialCode === '' && (
        <Input
          label="Email"
          type="email"
          autoComplete="email"
          value={typedEmail}
          onChange={(event) => setTypedEmail(event.target.value)}
          hint="The address the code was sent to."
        />
      )}
      {/* A refused code is the field's error (WCAG 3.3.1): invalid, and described by the hint and the alert. */}
      <Input
        id={codeId}
        label="Verification code"
        aria-invalid={verify.error ? true : undefined}
        aria-describedby={
          [hint && `${codeId}-message`, verify.error && errorId].filter(Boolean).join(' ') || undefined
        }
        autoComplete="one-time-code"
        autoCapitalize="characters"
        spellCheck={false}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        hint={hint}
        className="[&_input]:font-mono"
      />
      {verify.error && (
        <Alert id={errorId} tone="error">
          {verify.error.message}
        </Alert>
      )}
      <Button type="submit" disabled={!canSubmit} isLoading={verify.isPending}>
        Confirm
      </Button>
    </form>
  );
}
