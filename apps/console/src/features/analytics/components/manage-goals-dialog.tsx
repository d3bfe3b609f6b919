import { type Goal, type GoalInput, MAX_GOAL_NAME, MAX_GOALS_PER_PROJECT } from '@polyflow/contracts/goals';
import { MAX_PATH_PATTERN, pathPatternProblem } from '@polyflow/contracts/path-pattern';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Pencil, Trash2 } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { announce, focusSoon } from '../../../lib/announce';
import { focusFirstInvalid } from '../../../lib/focus-first-invalid';
import { describeGoal, useCreateGoal, useDeleteGoal, useGoals, useUpdateGoal } from '../../../lib/goals';

type Kind = 'event' | 'path';

/**
 * The "Manage goals" dialog: the goals with an edit and a delete button (deleting asks first), and the
 * form adding one, or changing the goal being edited (the same fields, checks and messages).
 */
export function ManageGoals({ projectId, onClose }: { projectId: string; onClose: () => void }) {
  const goals = useGoals(projectId);
  const create = useCreateGoal(projectId);
  const update = useUpdateGoal(projectId);
  const remove = useDeleteGoal(projectId);
  const [toDelete, setToDelete] = useState<Goal | null>(null);
  const [editing, setEditing] = useState<Goal | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const [kind, setKind] = useState<Kind>('event');
  const [name, setName] = useState('');
  const [eventName, setEventName] = useState('');
  const [propertyKey, setPropertyKey] = useState('');
  const [propertyValue, setPropertyValue] = useState('');
  const [pathPattern, setPathPattern] = useState('');
  const [submitted, setSubmitted] = useState(false);

  const list = goals.data ?? [];
  const dialogRef = useRef<HTMLDivElement>(null);
  // Where focus goes once a deleted goal's row is gone and the confirmation closed (WCAG 2.4.3): without
  // it focus fell to the page's body, behind the dialog, where Escape and Tab no longer reach it.
  const pendingFocus = useRef<{ isDone: () => boolean; find: () => HTMLElement | null } | null>(null);
  const isConfirming = toDelete !== null;
  useEffect(() => {
    const focus = pendingFocus.current;
    if (isConfirming || !focus?.isDone()) return;
    pendingFocus.current = null;
    focusSoon(focus.find);
  });
  const deleteButtonOf = (goal: Goal | undefined) =>
    goal
      ? (dialogRef.current?.querySelector<HTMLElement>(`[data-goal-id="${goal.id}"] [data-delete]`) ?? null)
      : null;
  // A change replaces a goal: the limit only stops adding one.
  const isFull = editing === null && list.length >= MAX_GOALS_PER_PROJECT;
  const errors = {
    name: name.trim() === '' ? 'Name the goal.' : undefined,
    eventName: kind === 'event' && eventName.trim() === '' ? 'Enter the custom event name.' : undefined,
    propertyValue:
      kind === 'event' && propertyKey !== '' && propertyValue === ''
        ? 'Enter the value, or clear the property.'
        : undefined,
    propertyKey:
      kind === 'event' && propertyKey === '' && propertyValue !== ''
        ? 'Enter the property, or clear the value.'
        : undefined,
    pathPattern:
      kind === 'path'
        ? pathPattern === ''
          ? 'Enter a page path pattern, such as /docs/**.'
          : (() => {
              const problem = pathPatternProblem(pathPattern);
              return problem ? `The pattern ${problem}.` : undefined;
            })()
        : undefined,
  };
  const isValid = Object.values(errors).every((error) => error === undefined);
  const shown = (error: string | undefined) => (submitted ? error : undefined);
  // The server's own refusal (a limit reached meanwhile, a pattern it refuses), by field when it names one.
  const mutation = editing ? update : create;
  const serverError = mutation.error;
  const serverField = serverError?.details?.[0]?.path;

  const fill = (goal: Goal | null) => {
    setSubmitted(false);
    setKind(goal?.kind ?? 'event');
    setName(goal?.name ?? '');
    setEventName(goal?.eventName ?? '');
    setPropertyKey(goal?.propertyKey ?? '');
    setPropertyValue(goal?.propertyValue ?? '');
    setPathPattern(goal?.pathPattern ?? '');
  };
  const startEditing = (goal: Goal) => {
    create.reset();
    update.reset();
    setEditing(goal);
    fill(goal);
    // Keyboard users land in the form they opened.
    requestAnimationFrame(() => nameRef.current?.focus());
  };
  const stopEditing = () => {
    update.reset();
    setEditing(null);
    fill(null);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (!isValid || isFull) {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    const input: GoalInput =
      kind === 'event'
        ? {
            name: name.trim(),
            kind,
            eventName,
            ...(propertyKey !== '' ? { propertyKey, propertyValue } : {}),
          }
        : { name: name.trim(), kind, pathPattern };
    if (editing) {
      update.mutate({ id: editing.id, input }, { onSuccess: stopEditing });
      return;
    }
    create.mutate(input, {
      onSuccess: () => {
        fill(null);
        announce(`Goal ${input.name} added`);
        focusSoon(() => nameRef.current);
      },
    });
  };

  return (
    <Modal isOpen title="Manage goals" onClose={onClose} className="max-w-xl">
      <div ref={dialogRef} className="flex flex-col gap-5">
        <section aria-labelledby="goal-list-title">
          <h3 id="goal-list-title" className="mb-2 text-sm font-bold text-slate-900">
            Goals ({list.length}/{MAX_GOALS_PER_PROJECT})
          </h3>
          {goals.isPending && <p className="text-sm text-slate-600">Loading goals…</p>}
          {goals.isError && <Alert tone="error">Could not load the goals: {goals.error.message}</Alert>}
          {goals.isSuccess && list.length === 0 && <p className="text-sm text-slate-600">No goals yet.</p>}
          {list.length > 0 && (
            <ul
              aria-label="Goals"
              className="flex max-h-56 flex-col divide-y divide-slate-100 overflow-y-auto"
            >
              {list.map((goal) => (
                <li
                  key={goal.id}
                  data-goal-id={goal.id}
                  className={cn(
                    'flex items-center gap-3 py-2',
                    editing?.id === goal.id && '-mx-2 rounded-md bg-indigo-50 px-2',
                  )}
                >
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-semibold text-slate-900">{goal.name}</p>
                    <p className="truncate text-xs text-slate-600">{describeGoal(goal)}</p>
                  </div>
                  <Button
                    type="button"
                    variant="secondary"
                    size="icon"
                    aria-label={`Edit the goal ${goal.name}`}
                    aria-pressed={editing?.id === goal.id}
                    onClick={() => startEditing(goal)}
                  >
                    <Pencil aria-hidden="true" className="size-4" />
                  </Button>
                  <Button
                    type="button"
                    variant="secondary"
                    size="icon"
                    data-delete
                    aria-label={`Delete the goal ${goal.name}`}
                    onClick={() => setToDelete(goal)}
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </section>

        <form
          onSubmit={onSubmit}
          noValidate
          aria-labelledby="goal-form-title"
          className="flex flex-col gap-3"
        >
          <h3 id="goal-form-title" className="text-sm font-bold text-slate-900">
            {editing ? `Edit “${editing.name}”` : 'Add a goal'}
          </h3>
          <Input
            ref={nameRef}
            label="Goal name"
            value={name}
            maxLength={MAX_GOAL_NAME}
            placeholder="Signed up"
            error={shown(errors.name)}
            onChange={(event) => setName(event.target.value)}
          />
          <fieldset className="flex flex-col gap-1.5">
            <legend className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">
              Converts when the user
            </legend>
            <div className="flex flex-wrap gap-4 text-sm text-slate-800">
              <label className="inline-flex items-center gap-2">
                <input
                  type="radio"
                  name="goal-kind"
                  checked={kind === 'event'}
                  onChange={() => setKind('event')}
                />
                sends a custom event
              </label>
              <label className="inline-flex items-center gap-2">
                <input
                  type="radio"
                  name="goal-kind"
                  checked={kind === 'path'}
                  onChange={() => setKind('path')}
                />
                visits a page
              </label>
            </div>
          </fieldset>
          {kind === 'event' ? (
            <>
              <Input
                label="Custom event name"
                value={eventName}
                maxLength={64}
                placeholder="signup"
                error={shown(errors.eventName)}
                onChange={(event) => setEventName(event.target.value)}
              />
              <div className="grid gap-3 sm:grid-cols-2">
                <Input
                  label="Property (optional)"
                  value={propertyKey}
                  maxLength={64}
                  placeholder="plan"
                  error={shown(errors.propertyKey)}
                  onChange={(event) => setPropertyKey(event.target.value)}
                />
                <Input
                  label="Property value"
                  value={propertyValue}
                  maxLength={256}
                  placeholder="pro"
                  error={shown(errors.propertyValue)}
                  onChange={(event) => setPropertyValue(event.target.value)}
                />
              </div>
            </>
          ) : (
            <Input
              label="Page path pattern"
              value={pathPattern}
              maxLength={MAX_PATH_PATTERN}
              placeholder="/docs/**"
              hint="* is one path segment, ** any number of them: /docs/*/intro, /blog/**, /**/checkout."
              error={
                shown(errors.pathPattern) ??
                (serverField === 'pathPattern' ? serverError?.message : undefined)
              }
              onChange={(event) => setPathPattern(event.target.value)}
            />
          )}
          {isFull && (
            <Alert>
              This project has {MAX_GOALS_PER_PROJECT} goals, the most it can have: delete one to add another.
            </Alert>
          )}
          {serverError && serverField !== 'pathPattern' && <Alert tone="error">{serverError.message}</Alert>}
          <div className="flex flex-wrap justify-end gap-2">
            {editing ? (
              <Button type="button" variant="secondary" onClick={stopEditing}>
                Cancel edit
              </Button>
            ) : (
              <Button type="button" variant="secondary" onClick={onClose}>
                Close
              </Button>
            )}
            <Button type="submit" isLoading={mutation.isPending} disabled={isFull}>
              {editing ? 'Save goal' : 'Add goal'}
            </Button>
          </div>
        </form>
      </div>
      <ConfirmDialog
        isOpen={toDelete !== null}
        title="Delete this goal?"
        confirmLabel="Delete goal"
        isBusy={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => {
          if (!toDelete) return;
          const deleted = toDelete;
          // Deleting the goal being edited ends the edit.
          if (editing?.id === deleted.id) stopEditing();
          const index = list.findIndex((goal) => goal.id === deleted.id);
          const neighbour = list[index + 1] ?? list[index - 1];
          remove.mutate(deleted.id, {
            onSuccess: () => {
              announce(`Goal ${deleted.name} deleted`);
              pendingFocus.current = {
                isDone: () => !dialogRef.current?.querySelector(`[data-goal-id="${deleted.id}"]`),
                // The next goal's delete button, else the previous one's, else Add goal.
                find: () =>
                  deleteButtonOf(neighbour) ??
                  dialogRef.current?.querySelector<HTMLElement>('form [type="submit"]') ??
                  null,
              };
            },
            onSettled: () => setToDelete(null),
          });
        }}
      >
        <p>
          “{toDelete?.name}” stops showing on the Analytics screen and in the attribution table. Its events
          stay stored: adding the goal again counts them again.
        </p>
      </ConfirmDialog>
    </Modal>
  );
}
