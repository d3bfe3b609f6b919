import {
  type CreateFunnel,
  type Funnel,
  MAX_FUNNEL_NAME,
  MAX_FUNNEL_STEPS,
} from '@polyflow/contracts/funnels';
import { type FormEvent, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Plus } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { SelectField } from '../../../components/ui/select-field';
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
  const move = (index: number, by: -1 | 1) =>
    setDraft((current) => {
      const steps = [...current.steps];
      const [step] = steps.splice(index, 1);
      if (step) steps.splice(index + by, 0, step);
      return { ...current, steps };
    });

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

      <ol className="flex flex-col gap-3" aria-label="Steps">
        {draft.steps.map((step, index) => (
          <FunnelStepRow
            // biome-ignore lint/suspicious/noArrayIndexKey: steps have no identity but their place.
            key={index}
            step={step}
            index={index}
            count={draft.steps.length}
            errorOf={(field) => shown(`steps.${index}.${field}`)}
            stepError={shown(`steps.${index}`)}
            onChange={(change) => setStep(index, change)}
            onMove={(by) => move(index, by)}
            onRemove={() => setDraft({ ...draft, steps: draft.steps.filter((_, at) => at !== index) })}
          />
        ))}
      </ol>
      {shown('steps') && <p className="text-xs text-red-600">{shown('steps')}</p>}
      {serverError && <Alert tone="error">{serverError}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          disabled={draft.steps.length >= MAX_FUNNEL_STEPS}
          onClick={() => setDraft({ ...draft, steps: [...draft.steps, blankStep('event')] })}
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
