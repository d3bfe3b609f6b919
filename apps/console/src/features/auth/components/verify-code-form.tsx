import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { writeSession } from '../../../lib/storage';
import { useVerifyEmail } from '../api/verify-email';

/** The Verification code input, prefilled from the link's token; the code is sent as given. */
export function VerifyCodeForm({ initialCode, onVerified }: { initialCode: string; onVerified: () => void }) {
  const [code, setCode] = useState(initialCode);
  const verify = useVerifyEmail();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    verify.mutate(code.trim(), {
      onSuccess: (session) => {
        // Verifying logs the user in; the success state still offers the Log in link of the spec.
        writeSession(session);
        onVerified();
      },
      // Spec §8: verify failures alert the error's JSON and change nothing else.
      onError: (error) => window.alert(JSON.stringify(error)),
    });
  };

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      <Input
        label="Verification code"
        autoComplete="one-time-code"
        spellCheck={false}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        className="[&_input]:font-mono"
      />
      <Button type="submit" disabled={code.trim() === ''} isLoading={verify.isPending}>
        Confirm
      </Button>
    </form>
  );
}
