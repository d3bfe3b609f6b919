import { type ForgetRequest, ForgetSchema, type Project } from '@polyflow/contracts/projects';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { UserX } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { focusSoon } from '../../../lib/announce';
import { countOf } from '../../../lib/format';
import { useForgetSubject } from '../api/forget-subject';

type Kind = 'wallet' | 'userId';

const KINDS: Array<{ value: Kind; label: string }> = [
  { value: 'wallet', label: 'Wallet' },
  { value: 'userId', label: 'User' },
];

/** The server's own rule (the contract's ForgetSchema), said in the field's words. */
function invalidMessage(subject: ForgetRequest): string | undefined {
  if (ForgetSchema.safeParse(subject).success) return undefined;
  return subject.wallet === undefined
    ? 'A user id has 1 to 64 characters, without control characters.'
    : 'A wallet address is 0x and 40 hex digits.';
}

/** A data-subject request: every event of one wallet or one user of this project, deleted after a confirm. */
export function ForgetCard({ project }: { project: Project }) {
  const [kind, setKind] = useState<Kind>('wallet');
  const [value, setValue] = useState('');
  const [isConfirming, setIsConfirming] = useState(false);
  const forget = useForgetSubject();
  const kindName = useId();
  const subjectValue = value.trim();
  const subject: ForgetRequest = kind === 'wallet' ? { wallet: subjectValue } : { userId: subjectValue };
  const error = subjectValue === '' ? undefined : invalidMessage(subject);
  const canForget = subjectValue !== '' && !error;
  const forgotten = forget.variables?.subject;
  const outcome = useRef<HTMLDivElement>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (canForget) setIsConfirming(true);
  };
  const confirm = () =>
    forget.mutate(
      { projectId: project.id, subject },
      {
        onSuccess: () => {
          setValue('');
          // Forget… is disabled once the field is empty, so the dialog cannot give focus back to it: focus
          // the outcome, which reads it out ("Deleted 12 events of wallet 0x…").
          focusSoon(() => outcome.current?.querySelector<HTMLElement>('[role="status"]'));
        },
        onError: () => focusSoon(() => outcome.current?.querySelector<HTMLElement>('[role="alert"]')),
        onSettled: () => setIsConfirming(false),
      },
    );

  return (
    <Card aria-labelledby="forget-title">
      <CardHeader
        titleId="forget-title"
        eyebrow="Privacy"
        title="Forget a wallet or user"
        description="Deletes every stored event of one wallet or one user of this project, for a person who asks to be forgotten."
      />
      <form onSubmit={onSubmit} className="flex flex-col gap-3">
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-slate-600">
            Forget
          </legend>
          {KINDS.map((option) => (
            <label key={option.value} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name={kindName}
                value={option.value}
                checked={kind === option.value}
                onChange={() => setKind(option.value)}
                className="size-4 accent-indigo-600"
              />
              {option.label}
            </label>
          ))}
        </fieldset>
        <Input
          label={kind === 'wallet' ? 'Wallet address' : 'User id'}
          placeholder={kind === 'wallet' ? '0x…' : 'The id the SDK gave the user'}
          autoComplete="off"
          spellCheck={false}
          maxLength={kind === 'wallet' ? 42 : 64}
          value={value}
          error={error}
          onChange={(event) => setValue(event.target.value)}
          className="[&_input]:font-mono"
        />
        <Button type="submit" variant="danger-outline" disabled={!canForget} className="self-start">
          <UserX aria-hidden="true" className="size-4" />
          Forget…
        </Button>
      </form>
      <div ref={outcome}>
        {forget.isSuccess && forgotten && (
          <Alert tone="success" className="mt-3">
            Deleted {countOf(forget.data.deleted, 'event')} of {forgotten.wallet ? 'wallet' : 'user'}{' '}
            <span className="font-mono break-all">{forgotten.wallet ?? forgotten.userId}</span>.
          </Alert>
        )}
        {forget.error && (
          <Alert tone="error" className="mt-3">
            {forget.error.message}
          </Alert>
        )}
      </div>
      <ConfirmDialog
        isOpen={isConfirming}
        title={kind === 'wallet' ? 'Forget this wallet?' : 'Forget this user?'}
        confirmLabel="Delete their events"
        isBusy={forget.isPending}
        onConfirm={confirm}
        onCancel={() => setIsConfirming(false)}
      >
        {kind === 'wallet' ? (
          <>
            <p>
              Every event of <strong>{project.name}</strong> where{' '}
              <strong className="font-mono break-all">{subjectValue}</strong> is the connected wallet or a
              transaction's sender is deleted, from every chart, table and export.
            </p>
            <p>
              The same person's other events (page views before the wallet connected) stay: forget their user
              id as well to remove them. This cannot be undone.
            </p>
          </>
        ) : (
          <p>
            Every event of <strong>{project.name}</strong> with the user id{' '}
            <strong className="font-mono break-all">{subjectValue}</strong> is deleted, from every chart,
            table and export. This cannot be undone.
          </p>
        )}
      </ConfirmDialog>
    </Card>
  );
}
