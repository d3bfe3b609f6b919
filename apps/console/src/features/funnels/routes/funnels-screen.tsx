import {
  type CreateFunnel,
  type Funnel,
  funnelStepLabel,
  MAX_FUNNELS_PER_PROJECT,
} from '@polyflow/contracts/funnels';
import type { Project } from '@polyflow/contracts/projects';
import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DOCS } from '../../../components/docs-links';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { byId, focusAfterRemoval } from '../../../components/ui/focus-after-removal';
import { Filter, Pencil, Plus, Trash2 } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { announce, focusSoon } from '../../../lib/announce';
import { canManage, VIEWER_HINT } from '../../../lib/roles';
import { useDeleteFunnel, useFunnels, useSaveFunnel } from '../api/funnels-rest';
import { FunnelBuilder } from '../components/funnel-builder';
import { ResultCard, windowText } from '../components/funnel-result-card';

/**
 * The Funnels screen (docs/funnels.md): the project's saved funnels, a builder for admins and the owner,
 * and the chosen funnel's conversion and drop-off per step over the period, optionally split by the
 * landing attribution of the user's first step.
 */
export function FunnelsScreen({ project }: { project: Project }) {
  const funnels = useFunnels(project.id);
  const save = useSaveFunnel(project.id);
  const remove = useDeleteFunnel(project.id);
  const [params, setParams] = useSearchParams();
  const [editing, setEditing] = useState<Funnel | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Funnel | null>(null);
  const mayWrite = canManage(project.role);
  const list = funnels.data ?? [];
  const chosen = list.find((funnel) => funnel.id === params.get('funnel')) ?? list[0] ?? null;

  const savedList = useRef<HTMLUListElement>(null);
  const newFunnelButton = useRef<HTMLButtonElement>(null);
  /** A control of a listed funnel: its name button (`[aria-pressed]`), Edit or Delete. */
  const controlOf = (id: string, control: string) =>
    savedList.current?.querySelector<HTMLElement>(`[data-item-key="${CSS.escape(id)}"] ${control}`);

  // The opener (New funnel, Edit) is disabled while the builder is open: focus its first field.
  const openBuilder = (funnel: Funnel | 'new') => {
    save.reset();
    setEditing(funnel);
    focusSoon(byId('funnel-name'));
  };
  // The builder goes: focus what opened it, or New funnel.
  const closeBuilder = (focusFunnelId: string | null) => {
    setEditing(null);
    focusSoon(
      () => (focusFunnelId ? controlOf(focusFunnelId, '[aria-pressed]') : null) ?? newFunnelButton.current,
    );
  };

  const confirmDelete = (funnel: Funnel) => {
    const index = list.findIndex((listed) => listed.id === funnel.id);
    remove.mutate(funnel.id, {
      onSuccess: () => {
        announce(`Funnel ${funnel.name} deleted`);
        focusAfterRemoval({
          list: () => savedList.current,
          removedKey: funnel.id,
          index,
          control: '[data-delete]',
          fallback: byId('funnels-title'),
        });
      },
      onSettled: () => setDeleting(null),
    });
  };

  const setParam = (name: string, value: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      return next;
    });

  const onSave = (funnel: CreateFunnel) => {
    const id = editing && editing !== 'new' ? editing.id : null;
    save.mutate(
      { id, funnel },
      {
        onSuccess: (saved) => {
          setParam('funnel', saved.id);
          announce(`Funnel ${saved.name} saved`);
          closeBuilder(saved.id);
        },
      },
    );
  };

  return (
    <div className="flex animate-panel flex-col gap-4">
      <PageHeader
        eyebrow={project.name}
        title="Funnels"
        help={{ href: DOCS.funnels, topic: 'custom funnels' }}
      />
      <Card aria-labelledby="funnels-title">
        <CardHeader
          titleId="funnels-title"
          eyebrow="Saved for this project"
          title="Your funnels"
          description={`Ordered steps completed within a window. At most ${MAX_FUNNELS_PER_PROJECT} per project.`}
          actions={
            mayWrite ? (
              <Button
                ref={newFunnelButton}
                onClick={() => openBuilder('new')}
                disabled={list.length >= MAX_FUNNELS_PER_PROJECT || editing !== null}
              >
                <Plus aria-hidden="true" className="size-4" /> New funnel
              </Button>
            ) : (
              <span className="text-xs text-slate-500">{VIEWER_HINT}</span>
            )
          }
        />
        {funnels.isError ? (
          <Alert tone="error">Could not load the funnels: {funnels.error.message}</Alert>
        ) : funnels.isPending ? (
          <p className="flex items-center gap-2 py-6 text-sm text-slate-500" role="status">
            <Spinner /> Loading the funnels…
          </p>
        ) : list.length === 0 && editing === null ? (
          <EmptyState icon={<Filter aria-hidden="true" className="size-6" />} title="No funnel yet">
            A funnel follows users through steps of your own: a page, a custom event, a wallet connection, a
            transaction stage.{mayWrite ? ' Choose “New funnel” to build one.' : ''}
          </EmptyState>
        ) : (
          <ul ref={savedList} className="flex flex-col divide-y divide-slate-100" aria-label="Saved funnels">
            {list.map((funnel) => (
              <li
                key={funnel.id}
                data-item-key={funnel.id}
                className={`flex flex-wrap items-center gap-2 rounded-lg px-2 py-2 ${funnel.id === chosen?.id ? 'bg-indigo-50' : ''}`}
              >
                <button
                  type="button"
                  className="min-w-0 flex-1 text-left"
                  aria-pressed={funnel.id === chosen?.id}
                  onClick={() => setParam('funnel', funnel.id)}
                >
                  <span
                    className={
                      funnel.id === chosen?.id
                        ? 'font-semibold text-indigo-800'
                        : 'font-medium text-indigo-700 hover:underline'
                    }
                  >
                    {funnel.name}
                  </span>
                  <span className="block truncate text-xs text-slate-600">
                    {funnel.steps.length} steps within {windowText(funnel.windowHours)}:{' '}
                    {funnel.steps.map(funnelStepLabel).join(' → ')}
                  </span>
                </button>
                {mayWrite && (
                  <>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Edit ${funnel.name}`}
                      disabled={editing !== null}
                      onClick={() => openBuilder(funnel)}
                    >
                      <Pencil aria-hidden="true" className="size-4" /> Edit
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      data-delete
                      aria-label={`Delete ${funnel.name}`}
                      onClick={() => setDeleting(funnel)}
                    >
                      <Trash2 aria-hidden="true" className="size-4" /> Delete
                    </Button>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>

      {editing !== null && (
        <Card aria-labelledby="builder-title">
          <CardHeader
            titleId="builder-title"
            eyebrow={editing === 'new' ? 'New funnel' : 'Edit funnel'}
            title={editing === 'new' ? 'Build a funnel' : editing.name}
            description="2 to 8 steps, in order. A user counts at a step when they completed it and every step before, each after the previous one, within the window after step 1."
          />
          <FunnelBuilder
            key={editing === 'new' ? 'new' : editing.id}
            editing={editing === 'new' ? null : editing}
            isSaving={save.isPending}
            serverError={save.error ? save.error.message : null}
            onSave={onSave}
            onCancel={() => closeBuilder(editing === 'new' ? null : editing.id)}
          />
        </Card>
      )}

      {chosen && (
        <ResultCard
          project={project}
          funnel={chosen}
          split={params.get('split')}
          onSplit={(value) => setParam('split', value)}
        />
      )}

      <ConfirmDialog
        isOpen={deleting !== null}
        title={`Delete “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete funnel"
        isBusy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) confirmDelete(deleting);
        }}
      >
        <p>The funnel’s definition goes for everyone in the project. Your events stay as they are.</p>
      </ConfirmDialog>
    </div>
  );
}
