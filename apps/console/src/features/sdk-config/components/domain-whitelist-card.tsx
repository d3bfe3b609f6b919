import type { Project } from '@polyflow/contracts/projects';
import { type FormEvent, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { byId, focusAfterRemoval } from '../../../components/ui/focus-after-removal';
import { Globe, X } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { announce, focusSoon } from '../../../lib/announce';
import { useAddDomain } from '../api/add-domain';
import { useRemoveDomain } from '../api/remove-domain';

interface DomainWhitelistCardProps {
  project: Project;
  onError: (error: Error) => void;
}

export function DomainWhitelistCard({ project, onError }: DomainWhitelistCardProps) {
  const [domain, setDomain] = useState('');
  const domainField = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const addDomain = useAddDomain();
  const removeDomain = useRemoveDomain();
  const removing = removeDomain.isPending ? removeDomain.variables?.domain : undefined;
  // Removing a domain refuses its pages' events at once: ask first, as deleting a project does.
  const [confirming, setConfirming] = useState<string | null>(null);
  const isLastDomain = project.whitelistedDomains.length === 1;
  const confirmRemove = (whitelisted: string) => {
    const index = project.whitelistedDomains.indexOf(whitelisted);
    removeDomain.mutate(
      { projectId: project.id, domain: whitelisted },
      {
        onSuccess: () => {
          announce(`Domain ${whitelisted} removed`);
          // The dialog gives focus back to the Remove button, which went with its row.
          focusAfterRemoval({
            list: () => list.current,
            removedKey: whitelisted,
            index,
            control: 'button',
            fallback: byId('domains-title'),
          });
        },
        onError,
        onSettled: () => setConfirming(null),
      },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = domain.trim();
    if (!value) return;
    const before = new Set(project.whitelistedDomains);
    addDomain.mutate(
      { projectId: project.id, domain: value },
      {
        onSuccess: (answer) => {
          setDomain('');
          // The server stores the domain normalised (lower case, no scheme): say the stored form.
          const added = answer.whitelistedDomains.find((stored) => !before.has(stored)) ?? value;
          announce(`Domain ${added} added`);
          // Add is disabled once the field is empty again: focus the field, ready for another domain.
          focusSoon(() => domainField.current);
        },
        onError,
      },
    );
  };

  return (
    <Card aria-labelledby="domains-title">
      <CardHeader
        titleId="domains-title"
        eyebrow="Security"
        title="SDK Domain Whitelist"
        description="Events are accepted only from pages on these domains. Use *.example.com for every subdomain."
      />
      {project.whitelistedDomains.length === 0 ? (
        <Alert tone="warning">
          No domains whitelisted. Your API key will not work. Please add domains where you'll be using the
          Polyflow SDK.
        </Alert>
      ) : (
        <ul
          ref={list}
          aria-label="Whitelisted domains"
          className="flex flex-col divide-y divide-slate-100 rounded-lg ring-1 ring-inset ring-slate-200"
        >
          {project.whitelistedDomains.map((whitelisted) => (
            <li
              key={whitelisted}
              data-item-key={whitelisted}
              className="flex items-center justify-between gap-3 px-3 py-2"
            >
              <span className="flex min-w-0 items-center gap-2 text-sm text-slate-800">
                <Globe aria-hidden="true" className="size-4 shrink-0 text-indigo-500" />
                <span className="font-mono break-all">{whitelisted}</span>
              </span>
              <button
                type="button"
                aria-label={`Remove ${whitelisted}`}
                aria-disabled={removing === whitelisted || undefined}
                onClick={() => removing !== whitelisted && setConfirming(whitelisted)}
                className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-indigo-600 aria-disabled:cursor-wait"
              >
                {removing === whitelisted ? <Spinner /> : <X aria-hidden="true" className="size-4" />}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={onSubmit} className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end">
        <Input
          ref={domainField}
          label="Domain"
          placeholder="E.g. polyflow.dev or app.polyflow.dev"
          autoComplete="off"
          spellCheck={false}
          value={domain}
          onChange={(event) => setDomain(event.target.value)}
          className="sm:flex-1"
        />
        <Button type="submit" disabled={domain.trim() === ''} isLoading={addDomain.isPending}>
          Add
        </Button>
      </form>
      <ConfirmDialog
        isOpen={confirming !== null}
        title="Remove this domain?"
        confirmLabel="Remove domain"
        isBusy={removeDomain.isPending}
        onConfirm={() => confirming && confirmRemove(confirming)}
        onCancel={() => setConfirming(null)}
      >
        <p>
          Events from pages on <strong className="font-mono break-all">{confirming}</strong> are refused from
          now on, and lost until the domain is added again.
        </p>
        {isLastDomain && (
          <p className="font-semibold">
            It is the last domain: with none left, the API key works on no page at all.
          </p>
        )}
      </ConfirmDialog>
    </Card>
  );
}
