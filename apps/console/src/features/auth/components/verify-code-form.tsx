import { isShortCode, normalizeShortCode } from '@polyflow/contracts/auth';
import { type FormEvent, useState } from 'react';
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
      <Input
        label="Verification code"
        autoComplete="one-time-code"
        autoCapitalize="characters"
        spellCheck={false}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        hint={initialCode === '' ? 'The 8-character code from the email, like ABCD-EFGH.' : undefined}
        className="[&_input]:font-mono"
      />
      {verify.error && <Alert tone="error">{verify.error.message}</Alert>}
      <Button type="submit" disabled={!canSubmit} isLoading={verify.isPending}>
        Confirm
      </Button>
    </form>
  );
}
