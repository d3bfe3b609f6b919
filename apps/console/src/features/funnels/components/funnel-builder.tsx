import {
  type CreateFunnel,
  CreateFunnelSchema,
  type Funnel,
  type FunnelStep,
  FunnelTxStages,
  MAX_FUNNEL_NAME,
  MAX_FUNNEL_STEPS,
  MIN_FUNNEL_STEPS,
} from '@polyflow/contracts/funnels';
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ArrowDown, ArrowUp, Plus, Trash2 } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { focusFirstInvalid } from '../../../lib/focus-first-invalid';

type Kind = FunnelStep['kind'];
const KIND_LABELS: Record<Kind, string> = {
  page: 'Page view',
  event: 'Custom event',
  wallet_connected: 'Wallet connection',
  transaction: 'Transaction stage',
};

/** A step as the form holds it: every kind's fields, so switching kinds keeps what was typed. */
interface DraftStep {
  kind: Kind;
  path: string;
  name: string;
  propertyKey: string;
  propertyValue: string;
  stage: (typeof FunnelTxStages)[number];
}
interface Draft {
  name: string;
  window: string;
  unit: 'hours' | 'days';
  steps: DraftStep[];
}

const blankStep = (kind: Kind = 'page'): DraftStep => ({
  kind,
  path: '',
  name: '',
  propertyKey: '',
  propertyValue: '',
  stage: 'confirmed',
});

function draftOf(funnel: Funnel | null): Draft {
  if (!funnel) {
    return { name: '', window: '1', unit: 'days', steps: [blankStep('page'), blankStep('wallet_connected')] };
  }
  const inDays = funnel.windowHours % 24 === 0;
  return {
    name: funnel.name,
    window: String(inDays ? funnel.windowHours / 24 : funnel.windowHours),
    unit: inDays ? 'days' : 'hours',
    steps: funnel.steps.map((step) => ({
      ...blankStep(step.kind),
      ...(step.kind === 'page' ? { path: step.path } : {}),
      ...(step.kind === 'event'
        ? {
            name: step.name,
            propertyKey: step.property?.key ?? '',
            propertyValue: step.property?.value ?? '',
          }
        : {}),
      ...(step.kind === 'transaction' ? { stage: step.stage } : {}),
    })),
  };
}

function stepOf(step: DraftStep): FunnelStep {
  switch (step.kind) {
    case 'page':
      return { kind: 'page', path: step.path.trim() };
    case 'event':
      return {
        kind: 'event',
        name: step.name.trim(),
        ...(step.propertyKey.trim() || step.propertyValue.trim()
          ? { property: { key: step.propertyKey.trim(), value: step.propertyValue.trim() } }
          : {}),
      };
    case 'wallet_connected':
      return { kind: 'wallet_connected' };
    case 'transaction':
      return { kind: 'transaction', stage: step.stage };
  }
}

const funnelOf = (draft: Draft): unknown => ({
  name: draft.name,
  windowHours: /^\d+$/.test(draft.window.trim())
    ? Number(draft.window.trim()) * (draft.unit === 'days' ? 24 : 1)
    : Number.NaN,
  steps: draft.steps.map(stepOf),
});

/** The contract's verdict as one message per field: `name`, `windowHours`, `steps`, `steps.0.path`, … */
function problemsOf(draft: Draft): { funnel: CreateFunnel | null; errors: Map<string, string> } {
  const parsed = CreateFunnelSchema.safeParse(funnelOf(draft));
  if (parsed.success) return { funnel: parsed.data, errors: new Map() };
  const errors = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const key = issue.path.join('.');
    // A property's key and value are one field pair: show either under its own input.
    if (!errors.has(key))
      errors.set(
        key,
        issue.message.replace(/^./, (c) => c.toUpperCase()),
      );
  }
  return { funnel: null, errors };
}

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
  const id = useId();
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
        <div className="flex flex-col gap-1.5">
          <label
            htmlFor={`${id}-unit`}
            className="text-xs font-semibold uppercase tracking-wide text-slate-600"
          >
            Unit
          </label>
          <select
            id={`${id}-unit`}
            className="h-10 rounded-lg bg-white px-3 text-sm ring-1 ring-inset ring-slate-300"
            value={draft.unit}
            onChange={(event) => setDraft({ ...draft, unit: event.target.value as Draft['unit'] })}
          >
            <option value="hours">hours</option>
            <option value="days">days</option>
          </select>
        </div>
      </div>

      <ol className="flex flex-col gap-3" aria-label="Steps">
        {draft.steps.map((step, index) => {
          const field = (name: string) => `steps.${index}.${name}`;
          const stepError = shown(`steps.${index}`);
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: steps have no identity but their place.
            <li key={index} className="rounded-lg border border-slate-200 p-3">
              <fieldset className="flex flex-col gap-3">
                <legend className="mb-2 text-sm font-semibold text-slate-800">Step {index + 1}</legend>
                <div className="grid gap-3 sm:grid-cols-[12rem_1fr]">
                  <div className="flex flex-col gap-1.5">
                    <label
                      htmlFor={`${id}-kind-${index}`}
                      className="text-xs font-semibold uppercase tracking-wide text-slate-600"
                    >
                      Kind
                    </label>
                    <select
                      id={`${id}-kind-${index}`}
                      className="h-10 rounded-lg bg-white px-3 text-sm ring-1 ring-inset ring-slate-300"
                      value={step.kind}
                      onChange={(event) => setStep(index, { kind: event.target.value as Kind })}
                    >
                      {(Object.keys(KIND_LABELS) as Kind[]).map((kind) => (
                        <option key={kind} value={kind}>
                          {KIND_LABELS[kind]}
                        </option>
                      ))}
                    </select>
                  </div>
                  {step.kind === 'page' && (
                    <Input
                      label={`Step ${index + 1} path pattern`}
                      value={step.path}
                      placeholder="/pricing/*"
                      hint="* is one path segment, ** any number of them."
                      error={shown(field('path'))}
                      onChange={(event) => setStep(index, { path: event.target.value })}
                    />
                  )}
                  {step.kind === 'event' && (
                    <div className="grid gap-3 sm:grid-cols-3">
                      <Input
                        label={`Step ${index + 1} event name`}
                        value={step.name}
                        placeholder="swap"
                        error={shown(field('name'))}
                        onChange={(event) => setStep(index, { name: event.target.value })}
                      />
                      <Input
                        label="Property (optional)"
                        value={step.propertyKey}
                        placeholder="pair"
                        error={shown(field('property.key'))}
                        onChange={(event) => setStep(index, { propertyKey: event.target.value })}
                      />
                      <Input
                        label="Value"
                        value={step.propertyValue}
                        placeholder="ETH/USDC"
                        error={shown(field('property.value'))}
                        onChange={(event) => setStep(index, { propertyValue: event.target.value })}
                      />
                    </div>
                  )}
                  {step.kind === 'wallet_connected' && (
                    <p className="self-end pb-2 text-sm text-slate-600">The user connects a wallet.</p>
                  )}
                  {step.kind === 'transaction' && (
                    <div className="flex flex-col gap-1.5">
                      <label
                        htmlFor={`${id}-stage-${index}`}
                        className="text-xs font-semibold uppercase tracking-wide text-slate-600"
                      >
                        Stage
                      </label>
                      <select
                        id={`${id}-stage-${index}`}
                        className="h-10 rounded-lg bg-white px-3 text-sm ring-1 ring-inset ring-slate-300"
                        value={step.stage}
                        onChange={(event) =>
                          setStep(index, { stage: event.target.value as DraftStep['stage'] })
                        }
                      >
                        {FunnelTxStages.map((stage) => (
                          <option key={stage} value={stage}>
                            {stage}
                          </option>
                        ))}
                      </select>
                    </div>
                  )}
                </div>
                {stepError && <p className="text-xs text-red-600">{stepError}</p>}
                <div className="flex flex-wrap gap-2">
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={index === 0}
                    aria-label={`Move step ${index + 1} up`}
                    onClick={() => move(index, -1)}
                  >
                    <ArrowUp aria-hidden="true" className="size-4" /> Up
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={index === draft.steps.length - 1}
                    aria-label={`Move step ${index + 1} down`}
                    onClick={() => move(index, 1)}
                  >
                    <ArrowDown aria-hidden="true" className="size-4" /> Down
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={draft.steps.length <= MIN_FUNNEL_STEPS}
                    aria-label={`Remove step ${index + 1}`}
                    onClick={() => setDraft({ ...draft, steps: draft.steps.filter((_, at) => at !== index) })}
                  >
                    <Trash2 aria-hidden="true" className="size-4" /> Remove
                  </Button>
                </div>
              </fieldset>
            </li>
          );
        })}
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
