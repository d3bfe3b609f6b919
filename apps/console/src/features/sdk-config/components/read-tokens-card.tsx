import type { CreatedReadToken, Project, ReadToken } from '@polyflow/contracts/projects';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { KeySquare, Trash2 } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/format';
import { useCreateReadToken } from '../api/create-read-token';
import { useReadTokens } from '../api/get-read-tokens';
import { useRevokeReadToken } from '../api/revoke-read-token';

import { tokenListFocus } from './token-list-focus';

interface ReadTokensCardProps {
  project: Project;
  onError: (error: Error) => void;
}

/** Read tokens for scripts and BI tools: created with a name, shown once, listed, revoked after a confirm. */
export function ReadTokensCard({ project, onError }: ReadTokensCardProps) {
  const dialogTextId = useId();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedReadToken | null>(null);
  const [revoking, setRevoking] = useState<ReadToken | null>(null);
  const tokens = useReadTokens(project.id);
  const createToken = useCreateReadToken();
  const revokeToken = useRevokeReadToken();
  const list = useRef<HTMLUListElement>(null);
  const emptyState = useRef<HTMLParagraphElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  const focus = tokenListFocus('Read', { list, emptyState, nameField });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = name.trim();
    if (!value) return;
    createToken.mutate(
      { projectId: project.id, name: value },
      {
        onSuccess: (token) => {
          setName('');
          setCreated(token);
        },
        onError,
      },
    );
  };

  const confirmRevoke = () => {
    if (!revoking) return;
    const index = tokens.data?.findIndex((token) => token.id === revoking.id) ?? 0;
    revokeToken.mutate(
      { projectId: project.id, tokenId: revoking.id },
      {
        onSuccess: () => focus.revoked(revoking, index),
        onSettled: () => setRevoking(null),
        onError,
      },
    );
  };

  const closeCreated = () => {
    const id = created?.id;
    setCreated(null);
    focus.created(id);
  };

  return (
    <Card aria-labelledby="read-tokens-title">
      <CardHeader
        titleId="read-tokens-title"
        eyebrow="Data access"
        title="Read tokens"
        description="For scripts and BI tools: a token reads this project's analytics (GraphQL queries) and exports its events, and nothing else. Send it as Authorization: Bearer <token>."
      />
      {tokens.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading read tokens…
        </p>
      ) : tokens.isError ? (
        <Alert tone="error">Could not load the read tokens: {tokens.error.message}</Alert>
      ) : tokens.data.length === 0 ? (
        <p
          ref={emptyState}
          className="flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-600 ring-1 ring-inset ring-slate-200"
        >
          <KeySquare aria-hidden="true" className="size-4 text-indigo-600" />
          No read tokens yet.
        </p>
      ) : (
        <ul
          ref={list}
          aria-label="Read tokens"
          className="flex flex-col divide-y divide-slate-100 rounded-lg ring-1 ring-inset ring-slate-200"
        >
          {tokens.data.map((token) => (
            <li
              key={token.id}
              data-item-key={token.id}
              className="flex items-center justify-between gap-3 px-3 py-2 focus:outline-2 focus:outline-indigo-600"
            >
              <span className="flex min-w-0 flex-col">
                <span className="truncate text-sm font-medium text-slate-800">{token.name}</span>
                <span className="text-xs text-slate-500">Created {formatDateTime(token.createdAt)}</span>
              </span>
              <Button
                variant="danger-outline"
                size="sm"
                aria-label={`Revoke ${token.name}`}
                onClick={() => setRevoking(token)}
              >
                <Trash2 aria-hidden="true" className="size-3.5" />
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={onSubmit} className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end">
        <Input
          ref={nameField}
          label="Token name"
          placeholder="E.g. Metabase or nightly export"
          autoComplete="off"
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.target.value)}
          className="sm:flex-1"
        />
        <Button type="submit" disabled={name.trim() === ''} isLoading={createToken.isPending}>
          Create token
        </Button>
      </form>

      <Modal
        isOpen={created !== null}
        title="Copy your read token"
        onClose={closeCreated}
        descriptionId={`${dialogTextId}-created`}
      >
        {created && (
          <div className="flex flex-col gap-4">
            <Alert id={`${dialogTextId}-created`} tone="warning">
              This is the only time the token is shown. Copy it now and keep it secret: anyone holding it can
              read this project's analytics and export its events.
            </Alert>
            <div className="flex items-center gap-2">
              <input
                readOnly
                aria-label={`Read token ${created.name}`}
                value={created.token}
                onFocus={(event) => event.target.select()}
                className="h-10 min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-sm text-slate-900 focus:outline-2 focus:outline-indigo-500"
              />
              <CopyButton text={created.token} label="Copy read token" />
            </div>
            <div className="flex justify-end">
              <Button onClick={closeCreated}>Done</Button>
            </div>
          </div>
        )}
      </Modal>

      <Modal
        isOpen={revoking !== null}
        title="Revoke this read token?"
        onClose={() => setRevoking(null)}
        descriptionId={`${dialogTextId}-revoke`}
      >
        {revoking && (
          <div className="flex flex-col gap-4">
            <p id={`${dialogTextId}-revoke`} className="text-sm text-slate-700">
              Scripts and tools using <strong>{revoking.name}</strong> stop working at once. This cannot be
              undone.
            </p>
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => setRevoking(null)}>
                Cancel
              </Button>
              <Button variant="danger" isLoading={revokeToken.isPending} onClick={confirmRevoke}>
                Revoke token
              </Button>
            </div>
          </div>
        )}
      </Modal>
    </Card>
  );
}
