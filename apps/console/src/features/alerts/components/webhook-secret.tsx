import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { KeyRound } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';

/**
 * A new webhook's signing secret, shown this once (the server keeps no readable copy for the console):
 * copy it into the receiver, which checks `Polyflow-Signature` with it.
 */
export function WebhookSecret({
  channelName,
  secret,
  onDismiss,
}: {
  channelName: string;
  secret: string;
  onDismiss: () => void;
}) {
  return (
    <section
      aria-labelledby="webhook-secret-title"
      className="flex flex-col gap-3 rounded-xl bg-amber-50 p-4 text-amber-950 ring-1 ring-inset ring-amber-300"
    >
      <h3 id="webhook-secret-title" className="flex items-center gap-2 text-sm font-bold">
        <KeyRound aria-hidden="true" className="size-4" />
        Signing secret of {channelName}
      </h3>
      <p className="text-sm">
        Copy it now: it is shown only this once. Your receiver uses it to verify the{' '}
        <code>Polyflow-Signature</code> header of every request. If it is lost, delete the channel and create
        a new one.
      </p>
      <div className="flex items-center gap-2">
        <Input
          label="Signing secret"
          hideLabel
          readOnly
          value={secret}
          onFocus={(event) => event.target.select()}
          className="min-w-0 flex-1 font-mono"
        />
        <CopyButton text={secret} label="Copy the signing secret" />
      </div>
      <Button variant="secondary" className="self-start" onClick={onDismiss}>
        I have saved the secret
      </Button>
    </section>
  );
}
