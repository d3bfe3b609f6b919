import type { Project } from '@polyflow/contracts/projects';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyButton } from '../../../components/ui/copy-button';
import { KeyRound, RefreshCw, Trash2 } from '../../../components/ui/icons';
import { announce } from '../../../lib/announce';
import { useCreateApiKey } from '../api/create-api-key';
import { useRevokeApiKey } from '../api/revoke-api-key';

interface ApiKeyCardProps {
  project: Project;
  onError: (error: Error) => void;
}

export function ApiKeyCard({ project, onError }: ApiKeyCardProps) {
  const createKey = useCreateApiKey();
  const revokeKey = useRevokeApiKey();
  const hasKey = Boolean(project.apiKey);
  const isBusy = createKey.isPending || revokeKey.isPending;
  // Replacing or revoking refuses the old key at once, so both ask first (creating the first key does not).
  const [confirming, setConfirming] = useState<'replace' | 'revoke' | null>(null);
  // Create, then Replace: the same button, which keeps focus whatever the key's state.
  const createButton = useRef<HTMLButtonElement>(null);
  const replaceKey = () =>
    createKey.mutate(project.id, {
      onSuccess: () => announce('API key replaced'),
      onError,
      onSettled: () => setConfirming(null),
    });
  // Revoke goes with the key, and the dialog would give focus back to it: once the key is gone from the
  // screen (the render without Revoke), focus goes to Create. Not from the answer's callback: the dialog
  // closes and refocuses Revoke after it, in either order with the project's refresh (a test's race).
  const revoked = useRef(false);
  useEffect(() => {
    if (hasKey || !revoked.current) return;
    revoked.current = false;
    createButton.current?.focus();
  }, [hasKey]);
  const confirmRevoke = () => {
    revoked.current = true;
    revokeKey.mutate(project.id, {
      onSuccess: () => announce('API key revoked'),
      onError: (error) => {
        revoked.current = false;
        onError(error);
      },
      onSettled: () => setConfirming(null),
    });
  };

  return (
    <Card aria-labelledby="api-key-title">
      <CardHeader
        titleId="api-key-title"
        eyebrow="Authentication"
        title="API Key"
        description="The SDK sends this key with every event. Replacing or revoking it stops the old key at once."
      />
      {project.apiKey ? (
        <div className="flex items-center gap-2">
          <input
            readOnly
            aria-label="API key"
            value={project.apiKey}
            onFocus={(event) => event.target.select()}
            className="h-10 min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-sm text-slate-900 focus:outline-2 focus:outline-indigo-500"
          />
          <CopyButton text={project.apiKey} label="Copy API key" />
        </div>
      ) : (
        <p className="flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-600 ring-1 ring-inset ring-slate-200">
          <KeyRound aria-hidden="true" className="size-4 text-indigo-600" />
          This project has no API key yet. Create one to start sending events.
        </p>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        <Button
          ref={createButton}
          variant={hasKey ? 'secondary' : 'primary'}
          isLoading={createKey.isPending}
          disabled={isBusy}
          onClick={() =>
            hasKey
              ? setConfirming('replace')
              : createKey.mutate(project.id, { onSuccess: () => announce('API key created'), onError })
          }
        >
          {!createKey.isPending &&
            (hasKey ? (
              <RefreshCw aria-hidden="true" className="size-4" />
            ) : (
              <KeyRound aria-hidden="true" className="size-4" />
            ))}
          {hasKey ? 'Replace' : 'Create'}
        </Button>
        {hasKey && (
          <Button
            variant="danger-outline"
            isLoading={revokeKey.isPending}
            disabled={isBusy}
            onClick={() => setConfirming('revoke')}
          >
            {!revokeKey.isPending && <Trash2 aria-hidden="true" className="size-4" />}
            Revoke
          </Button>
        )}
      </div>
      <ConfirmDialog
        isOpen={confirming === 'replace'}
        title="Replace the API key?"
        confirmLabel="Replace key"
        isBusy={createKey.isPending}
        onConfirm={replaceKey}
        onCancel={() => setConfirming(null)}
      >
        <p>
          A new key is made and the current one is refused at once: every page and app still sending it stops
          reaching Polyflow, and their events are lost, until their SDK snippet has the new key.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        isOpen={confirming === 'revoke'}
        title="Revoke the API key?"
        confirmLabel="Revoke key"
        isBusy={revokeKey.isPending}
        onConfirm={confirmRevoke}
        onCancel={() => setConfirming(null)}
      >
        <p>
          The key is refused at once and the project is left without one: Polyflow stops receiving events from
          every page and app using it, until you create a new key and put it in their SDK snippet.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
