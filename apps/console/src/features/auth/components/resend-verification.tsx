import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useResendVerification } from '../api/resend-verification';

export function ResendVerification({ email }: { email: string }) {
  const resend = useResendVerification();
  return (
    <div className="flex flex-col gap-3">
      <Button variant="secondary" isLoading={resend.isPending} onClick={() => resend.mutate(email)}>
        Resend verification email
      </Button>
      {resend.isSuccess && <Alert tone="success">We sent a new verification email to {email}.</Alert>}
      {resend.error && <Alert tone="error">{resend.error.message}</Alert>}
    </div>
  );
}
