import {
  type CreateFunnel,
  type Funnel,
  MAX_FUNNEL_NAME,
  MAX_FUNNEL_STEPS,
} from '@polyflow/contracts/funnels';
import { type FormEvent, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Plus } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { SelectField } from '../../../components/ui/select-field';
import { announce, focusSoon } from '../../../lib/announce';
import { focusFirstInvalid } from '../../../lib/focus-first-invalid';
import { blankStep, type Draft, type DraftStep, draftOf, problemsOf } from './funnel-draft';
import { FunnelStepRow } from './funnel-step-row';

const UNIT_OPTIONS = [
  { value: 'hours', label: 'hours' },
  { value: 'days', label: 'days' },
] as const;

interface FunnelBuilderProps {
  /** The funnel being changed, or null for a new one. */
  editing: Funnel | null;
  isSaving: boolean;
  serverError: string | null;
  onSave: (funnel: CreateFunnel) => void;
  onCancel: () => void;
}

/**
 * The funnel form (docs/funnels.md): a name, 2–8 ordered steps, each a page path pattern, a custom event
 * (optionally one property's value), a wallet connection or a transaction stage, and the window (1 hour
 * to 30 days). Native fields and buttons only, so every part works from the keyboard; errors show under
 * their field once saving was tried, from the same contract the server checks.
 */
export function FunnelBuilder({ editing, isSaving, serverError, onSave, onCancel }: FunnelBuilderProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(editing));
  const [tried, setTried] = useState(false);
  const { funnel, errors } = problemsOf(draft);
  const shown = (key: string) => (tried ? errors.get(key) : undefined);

  const setStep = (index: number, change: Partial<DraftStep>) =>
    setDraft((current) => ({
      ...current,
      steps: current.steps.map((step, at) => (at === index ? { ...step, ...change } : step)),
    }));
  const stepList = useRef<HTMLOListElement>(null);
  const addStepButton = useRef<HTMLButtonElement>(null);
  /** A control of the step with this id, once the render has put its row in place. */
  const controlOf = (id: string, control: string) =>
    stepList.current?.querySelector<HTMLElement>(`[data-step-id="${id}"] ${control}`);
  const enabled = (element: HTMLElement | null | undefined) =>
    element && !element.hasAttribute('disabled') ? element : null;

  // The moved step's row is keyed by its id, so focus goes to the same button of the same step (not to
  // whichever step now holds the old place); at the top or bottom that button is disabled: the other one.
  const move = (index: number, by: -1 | 1) => {
    const step = draft.steps[index];
    if (!step) return;
    setDraft((current) => {
      const steps = [...current.steps];
      const [moved] = steps.splice(index, 1);
      if (moved) steps.splice(index + by, 0, moved);
      return { ...current, steps };
    });
    const [same, other] =
      by < 0 ? ['[data-move="up"]', '[data-move="down"]'] : ['[data-move="down"]', '[data-move="up"]'];
    focusSoon(() => enabled(controlOf(step.id, same)) ?? controlOf(step.id, other));
    announce(`Step ${index + 1} moved to position ${index + 1 + by}`);
  };

  // Its Remove button goes with the step: focus the step that took its place (its Remove button, or its
  // Kind when no step may be removed any more), else Add step.
  const remove = (index: number) => {
    const next = draft.steps[index + 1];
    setDraft({ ...draft, steps: draft.steps.filter((_, at) => at !== index) });
    focusSoon(() =>
      next
        ? (enabled(controlOf(next.id, '[data-remove]')) ?? controlOf(next.id, 'select'))
        : addStepButton.current,
    );
    announce(`Step ${index + 1} removed`);
  };

  // Add step is disabled at the most steps: focus the new step's Kind, where its fields start.
  const addStep = () => {
    const step = blankStep('event');
    setDraft({ ...draft, steps: [...draft.steps, step] });
    focusSoon(() => controlOf(step.id, 'select'));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTried(true);
    if (funnel) onSave(funnel);
    else focusFirstInvalid(event.currentTarget);
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label="Funnel builder">
      <div className="grid gap-3 sm:grid-cols-[1fr_auto_auto]">
        <Input
          id="funnel-name"
          label="Name"
          value={draft.name}
          maxLength={MAX_FUNNEL_NAME + 10}
          placeholder="Pricing to first swap"
          error={shown('name')}
          onChange={(event) => setDraft({ ...draft, name: event.target.value })}
        />
        <Input
          label="Window"
          inputMode="numeric"
          value={draft.window}
          error={shown('windowHours') ? 'The window is 1 hour to 30 days.' : undefined}
          hint="Steps 2 on must follow step 1 within it."
          onChange={(event) => setDraft({ ...draft, window: event.target.value })}
          className="sm:w-40"
        />
        <SelectField
          label="Unit"
          value={draft.unit}
          options={UNIT_OPTIONS}
          onChange={(event) => setDraft({ ...draft, unit: event.target.value as typeof draft.unit })}
        />
      </div>

      <ol ref={stepList} className="flex flex-col gap-3" aria-label="Steps">
        {draft.steps.map((step, index) => (
          <FunnelStepRow
            key={step.id}
            step={step}
            index={index}
            count={draft.steps.length}
            errorOf={(field) => shown(`steps.${index}.${field}`)}
            stepError={shown(`steps.${index}`)}
            onChange={(change) => setStep(index, change)}
            onMove={(by) => move(index, by)}
            onRemove={() => remove(index)}
          />
        ))}
      </ol>
      {shown('steps') && <p className="text-xs text-red-600">{shown('steps')}</p>}
      {serverError && <Alert tone="error">{serverError}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button
          ref={addStepButton}
          variant="secondary"
          disabled={draft.steps.length >= MAX_FUNNEL_STEPS}
          onClick={addStep}
        >
          <Plus aria-hidden="true" className="size-4" /> Add step
        </Button>
        <span className="flex-1" />
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isLoading={isSaving}>
          {editing ? 'Save changes' : 'Save funnel'}
        </Button>
      </div>
    </form>
  );
}
