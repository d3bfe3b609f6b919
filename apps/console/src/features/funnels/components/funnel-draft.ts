import {
  type CreateFunnel,
  CreateFunnelSchema,
  type Funnel,
  type FunnelStep,
  type FunnelTxStages,
} from '@polyflow/contracts/funnels';

/**
 * The funnel form's draft (docs/funnels.md): what the fields hold, made from a saved funnel and read back
 * through the same contract the server checks.
 */
export type Kind = FunnelStep['kind'];

/**
 * A step as the form holds it: every kind's fields, so switching kinds keeps what was typed, and an id of
 * its own so that its row (and the focused button in it) moves with it when the steps are reordered.
 */
export interface DraftStep {
  id: string;
  kind: Kind;
  path: string;
  name: string;
  propertyKey: string;
  propertyValue: string;
  stage: (typeof FunnelTxStages)[number];
}
export interface Draft {
  name: string;
  window: string;
  unit: 'hours' | 'days';
  steps: DraftStep[];
}

let lastStepId = 0;
const nextStepId = () => `step-${++lastStepId}`;

export const blankStep = (kind: Kind = 'page'): DraftStep => ({
  id: nextStepId(),
  kind,
  path: '',
  name: '',
  propertyKey: '',
  propertyValue: '',
  stage: 'confirmed',
});

export function draftOf(funnel: Funnel | null): Draft {
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
export function problemsOf(draft: Draft): { funnel: CreateFunnel | null; errors: Map<string, string> } {
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
