import type { Project } from '@polyflow/contracts/projects';
import type { SourcemapAccountUsage, SourcemapRelease } from '@polyflow/contracts/sourcemaps';
import { useId, useRef, useState } from 'react';
import { DOCS } from '../../../components/docs-links';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { focusAfterRemoval } from '../../../components/ui/focus-after-removal';
import { Code2, Trash2 } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { announce } from '../../../lib/announce';
import { countOf, formatBytes, formatDateTime, shownRelease } from '../../../lib/format';
import { canManage } from '../../../lib/roles';
import { useDeleteSourcemapRelease } from '../api/delete-sourcemap-release';
import { useSourcemapReleases } from '../api/get-sourcemap-releases';

/** From this share of the limit the card says what happens at the limit and how to make room. */
const NEAR_LIMIT = 0.9;

/**
 * The releases listed before "Show all": the most recently uploaded. A project holds up to 100, and a Delete
 * button each would be 100 Tab stops between the card and the next one (a viewer's are disabled: all listed).
 */
export const FIRST_RELEASES = 10;

interface SourceMapsCardProps {
  project: Project;
  onError: (error: Error) => void;
}

/**
 * The project's releases with source maps and the owner's account usage against its limit
 * (docs/source-maps.md): admins and the owner delete a release's maps to make room, after a confirm. The SDK
 * screen locks the card for viewers (its Delete buttons disabled, the reason on hover), as its other cards.
 */
export function SourceMapsCard({ project, onError }: SourceMapsCardProps) {
  const titleId = useId();
  const releases = useSourcemapReleases(project.id);
  const deleteRelease = useDeleteSourcemapRelease();
  const [deleting, setDeleting] = useState<SourcemapRelease | null>(null);
  const [showAll, setShowAll] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  const emptyState = useRef<HTMLParagraphElement>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    const index = releases.data?.releases.findIndex((release) => release.release === deleting.release) ?? 0;
    deleteRelease.mutate(
      { projectId: project.id, release: deleting.release },
      {
        onSuccess: () => {
          announce(`Source maps of release ${shownRelease(deleting.release)} deleted`);
          focusAfterRemoval({
            list: () => list.current,
            removedKey: deleting.release,
            index,
            control: 'button',
            fallback: () => emptyState.current,
          });
        },
        onSettled: () => setDeleting(null),
        onError,
      },
    );
  };

  const all = releases.data?.releases ?? [];
  // A viewer's card is locked (its buttons disabled, so no Tab stops, and "Show all" could not be pressed).
  const shown = showAll || !canManage(project.role) ? all : all.slice(0, FIRST_RELEASES);
  const expand = () => {
    setShowAll(true);
    // The first release that was hidden takes the focus, so the keyboard goes on where the list went on.
    requestAnimationFrame(() =>
      list.current?.querySelectorAll<HTMLButtonElement>('li button')[FIRST_RELEASES]?.focus(),
    );
  };

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader
        titleId={titleId}
        eyebrow="Incidents"
        title="Source maps"
        description="The releases whose maps turn this project's minified stack traces back into your code. Delete a release's maps to make room: its errors are then shown minified."
      />
      {releases.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading source maps…
        </p>
      ) : releases.isError ? (
        <Alert tone="error">Could not load the source maps: {releases.error.message}</Alert>
      ) : (
        <div className="flex flex-col gap-4">
          <AccountUsage usage={releases.data.account} isOwner={project.role === 'owner'} />
          {releases.data.releases.length === 0 ? (
            <p
              ref={emptyState}
              className="flex items-start gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-600 ring-1 ring-inset ring-slate-200"
            >
              <Code2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-indigo-600" />
              <span>
                No source maps yet. Upload them from CI with a write token: see the{' '}
                <a href={DOCS.sourceMaps} className="font-semibold text-indigo-700 underline">
                  source maps docs
                </a>
                .
              </span>
            </p>
          ) : (
            <>
              <ul
                ref={list}
                aria-label="Releases with source maps"
                className="flex flex-col divide-y divide-slate-100 rounded-lg ring-1 ring-inset ring-slate-200"
              >
                {shown.map((release) => (
                  <li
                    key={release.release}
                    data-item-key={release.release}
                    className="flex items-center justify-between gap-3 px-3 py-2 focus:outline-2 focus:outline-indigo-600"
                  >
                    <span className="flex min-w-0 flex-col">
                      <span className="whitespace-pre-wrap break-all font-mono text-sm font-medium text-slate-800">
                        {shownRelease(release.release)}
                      </span>
                      <span className="text-xs text-slate-600">
                        {countOf(release.files, 'file')} · {formatBytes(release.bytes)} ·{' '}
                        <span className="whitespace-nowrap">
                          uploaded {formatDateTime(release.updatedAt)}
                        </span>
                      </span>
                    </span>
                    <Button
                      variant="danger-outline"
                      size="sm"
                      aria-label={`Delete the source maps of ${shownRelease(release.release)}`}
                      onClick={() => setDeleting(release)}
                    >
                      <Trash2 aria-hidden="true" className="size-3.5" />
                      Delete
                    </Button>
                  </li>
                ))}
              </ul>
              {shown.length < all.length && (
                <Button variant="secondary" size="sm" className="self-start" onClick={expand}>
                  Show all {all.length.toLocaleString('en-US')} releases
                </Button>
              )}
            </>
          )}
        </div>
      )}
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete these source maps?"
        confirmLabel="Delete source maps"
        isBusy={deleteRelease.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        {deleting && (
          <>
            <p>
              The {countOf(deleting.files, 'map')} of release{' '}
              <strong className="whitespace-pre-wrap break-all">{shownRelease(deleting.release)}</strong> (
              {formatBytes(deleting.bytes)}) {deleting.files === 1 ? 'is' : 'are'} deleted from the server.
            </p>
            <p>
              Errors from this release are then shown and grouped on their minified frames, until its maps are
              uploaded again. This cannot be undone.
            </p>
          </>
        )}
      </ConfirmDialog>
    </Card>
  );
}

/** "1.2 GB of 5 GB used across your projects", with a bar, and what to do near the limit. */
function AccountUsage({ usage, isOwner }: { usage: SourcemapAccountUsage; isOwner: boolean }) {
  const share = usage.maxBytes > 0 ? usage.bytes / usage.maxBytes : 1;
  const whose = isOwner ? 'your projects' : "the projects of this project's owner";
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-slate-700">
        <strong className="font-semibold text-slate-900">{formatBytes(usage.bytes)}</strong> of{' '}
        {formatBytes(usage.maxBytes)} used across {whose}
      </p>
      <div aria-hidden="true" className="h-2 overflow-hidden rounded-full bg-slate-100">
        <div
          className={
            share >= 1
              ? 'h-full bg-red-600'
              : share >= NEAR_LIMIT
                ? 'h-full bg-amber-500'
                : 'h-full bg-indigo-600'
          }
          style={{ width: `${Math.min(100, Math.max(share > 0 ? 1 : 0, share * 100))}%` }}
        />
      </div>
      {share >= NEAR_LIMIT && (
        <Alert tone="warning">
          {share > 1
            ? `Over the limit: every upload is refused until less than ${formatBytes(usage.maxBytes)} is used.`
            : `${share >= 1 ? 'At the limit' : 'Near the limit'}: an upload that would pass ${formatBytes(usage.maxBytes)} is refused.`}{' '}
          Delete the maps of releases you no longer run, here or in {isOwner ? 'your' : "the owner's"} other
          projects, or ask the server's operator to raise the limit.
        </Alert>
      )}
    </div>
  );
}
