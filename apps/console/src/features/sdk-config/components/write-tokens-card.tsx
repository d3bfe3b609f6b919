import type { Project } from '@polyflow/contracts/projects';
import type { CreatedWriteToken, WriteToken } from '@polyflow/contracts/sourcemaps';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { Trash2, UploadCloud } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/format';
import { useCreateWriteToken } from '../api/create-write-token';
import { useWriteTokens } from '../api/get-write-tokens';
import { useRevokeWriteToken } from '../api/revoke-write-token';

import { tokenListFocus } from './token-list-focus';

interface WriteTokensCardProps {
  project: Project;
  onError: (error: Error) => void;
}

/**
 * Write tokens for CI pipelines (docs/source-maps.md): they upload source maps and nothing else. Created with
 * a name, shown once, listed, revoked after a confirm, as read tokens are.
 */
export function WriteTokensCard({ project, onError }: WriteTokensCardProps) {
  const dialogTextId = useId();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedWriteToken | null>(null);
  const [revoking, setRevoking] = useState<WriteToken | null>(null);
  const tokens = useWriteTokens(project.id);
  const createToken = useCreateWriteToken();
  const revokeToken = useRevokeWriteToken();
  const list = useRef<HTMLUListElement>(null);
  const emptyState = useRef<HTMLParagraphElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  const focus = tokenListFocus('Write', { list, emptyState, nameField });

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
    <Card aria-labelledby="write-tokens-title">
      <CardHeader
        titleId="write-tokens-title"
        eyebrow="Source maps"
        title="Write tokens"
        description="For CI pipelines: a token uploads this project's source maps (npx @polyflow/cli sourcemaps upload) and does nothing else. Pass it as POLYFLOW_TOKEN."
      />
      {tokens.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading write tokens…
        </p>
      ) : tokens.isError ? (
        <Alert tone="error">Could not load the write tokens: {tokens.error.message}</Alert>
      ) : tokens.data.length === 0 ? (
        <p
          ref={emptyState}
          className="flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-600 ring-1 ring-inset ring-slate-200"
        >
          <UploadCloud aria-hidden="true" className="size-4 text-indigo-600" />
          No write tokens yet.
        </p>
      ) : (
        <ul
          ref={list}
          aria-label="Write tokens"
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
          label="Write token name"
          placeholder="E.g. GitHub Actions"
          autoComplete="off"
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.target.value)}
          className="sm:flex-1"
        />
        <Button type="submit" disabled={name.trim() === ''} isLoading={createToken.isPending}>
          Create write token
        </Button>
      </form>

      <Modal
        isOpen={created !== null}
        title="Copy your write token"
        onClose={closeCreated}
        descriptionId={`${dialogTextId}-created`}
      >
        {created && (
          <div className="flex flex-col gap-4">
            <Alert id={`${dialogTextId}-created`} tone="warning">
              This is the only time the token is shown. Copy it now into your CI's secrets: anyone holding it
              can upload source maps to this project.
            </Alert>
            <div className="flex items-center gap-2">
              <input
                readOnly
                aria-label={`Write token ${created.name}`}
                value={created.token}
                onFocus={(event) => event.target.select()}
                className="h-10 min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-sm text-slate-900 focus:outline-2 focus:outline-indigo-500"
              />
              <CopyButton text={created.token} label="Copy write token" />
            </div>
            <div className="flex justify-end">
              <Button onClick={closeCreated}>Done</Button>
            </div>
          </div>
        )}
      </Modal>

      <Modal
        isOpen={revoking !== null}
        title="Revoke this write token?"
        onClose={() => setRevoking(null)}
        descriptionId={`${dialogTextId}-revoke`}
      >
        {revoking && (
          <div className="flex flex-col gap-4">
            <p id={`${dialogTextId}-revoke`} className="text-sm text-slate-700">
              Uploads with <strong>{revoking.name}</strong> are refused at once. This cannot be undone.
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
