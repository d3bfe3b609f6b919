import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { Trash2 } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import type { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { tokenListFocus } from './token-list-focus';

type Token = { id: string; name: string; createdAt: string };

/** What a kind of token says on its card; the card does the rest the same for every kind. */
export interface TokenTexts {
  /** 'Read' or 'Write': the titles, labels, messages and the announcements say "<kind> token(s)". */
  kind: 'Read' | 'Write';
  eyebrow: string;
  description: string;
  emptyIcon: ReactNode;
  nameLabel: string;
  namePlaceholder: string;
  createLabel: string;
  /** The warning beside a new token, shown once. */
  shownOnce: ReactNode;
  /** What stops when a token is revoked. */
  revokeWarning: (name: ReactNode) => ReactNode;
}

interface TokensCardProps<Listed extends Token, Created extends Listed & { token: string }> {
  projectId: string;
  texts: TokenTexts;
  tokens: UseQueryResult<Listed[], Error>;
  createToken: UseMutationResult<Created, ApiError, { projectId: string; name: string }>;
  revokeToken: UseMutationResult<void, ApiError, { projectId: string; tokenId: string }>;
  onError: (error: Error) => void;
}

/**
 * A card of a project's tokens of one kind (read tokens, write tokens): created with a name, shown once,
 * listed, revoked after a confirm.
 */
export function TokensCard<Listed extends Token, Created extends Listed & { token: string }>({
  projectId,
  texts,
  tokens,
  createToken,
  revokeToken,
  onError,
}: TokensCardProps<Listed, Created>) {
  const dialogTextId = useId();
  const titleId = `${dialogTextId}-title`;
  const lowerKind = texts.kind.toLowerCase();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<Created | null>(null);
  const [revoking, setRevoking] = useState<Listed | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const emptyState = useRef<HTMLParagraphElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  const focus = tokenListFocus(texts.kind, { list, emptyState, nameField });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = name.trim();
    if (!value) return;
    createToken.mutate(
      { projectId: projectId, name: value },
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
      { projectId: projectId, tokenId: revoking.id },
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
    <Card aria-labelledby={titleId}>
      <CardHeader
        titleId={titleId}
        eyebrow={texts.eyebrow}
        title={`${texts.kind} tokens`}
        description={texts.description}
      />
      {tokens.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading {lowerKind} tokens…
        </p>
      ) : tokens.isError ? (
        <Alert tone="error">
          Could not load the {lowerKind} tokens: {tokens.error.message}
        </Alert>
      ) : tokens.data.length === 0 ? (
        <p
          ref={emptyState}
          className="flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-600 ring-1 ring-inset ring-slate-200"
        >
          {texts.emptyIcon}
          No {lowerKind} tokens yet.
        </p>
      ) : (
        <ul
          ref={list}
          aria-label={`${texts.kind} tokens`}
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
          label={texts.nameLabel}
          placeholder={texts.namePlaceholder}
          autoComplete="off"
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.target.value)}
          className="sm:flex-1"
        />
        <Button type="submit" disabled={name.trim() === ''} isLoading={createToken.isPending}>
          {texts.createLabel}
        </Button>
      </form>

      <Modal
        isOpen={created !== null}
        title={`Copy your ${lowerKind} token`}
        onClose={closeCreated}
        descriptionId={`${dialogTextId}-created`}
      >
        {created && (
          <div className="flex flex-col gap-4">
            <Alert id={`${dialogTextId}-created`} tone="warning">
              {texts.shownOnce}
            </Alert>
            <div className="flex items-center gap-2">
              <input
                readOnly
                aria-label={`${texts.kind} token ${created.name}`}
                value={created.token}
                onFocus={(event) => event.target.select()}
                className="h-10 min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-sm text-slate-900 focus:outline-2 focus:outline-indigo-500"
              />
              <CopyButton text={created.token} label={`Copy ${lowerKind} token`} />
            </div>
            <div className="flex justify-end">
              <Button onClick={closeCreated}>Done</Button>
            </div>
          </div>
        )}
      </Modal>

      <Modal
        isOpen={revoking !== null}
        title={`Revoke this ${lowerKind} token?`}
        onClose={() => setRevoking(null)}
        descriptionId={`${dialogTextId}-revoke`}
      >
        {revoking && (
          <div className="flex flex-col gap-4">
            <p id={`${dialogTextId}-revoke`} className="text-sm text-slate-700">
              {texts.revokeWarning(<strong>{revoking.name}</strong>)}
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
