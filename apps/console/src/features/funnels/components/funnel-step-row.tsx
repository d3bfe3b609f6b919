import { FunnelTxStages, MIN_FUNNEL_STEPS } from '@polyflow/contracts/funnels';
import { Button } from '../../../components/ui/button';
import { ArrowDown, ArrowUp, Trash2 } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { SelectField } from '../../../components/ui/select-field';
import type { DraftStep, Kind } from './funnel-draft';

const KIND_LABELS: Record<Kind, string> = {
  page: 'Page view',
  event: 'Custom event',
  wallet_connected: 'Wallet connection',
  transaction: 'Transaction stage',
};
const KIND_OPTIONS = (Object.keys(KIND_LABELS) as Kind[]).map((kind) => ({
  value: kind,
  label: KIND_LABELS[kind],
}));
const STAGE_OPTIONS = FunnelTxStages.map((stage) => ({ value: stage, label: stage }));

interface FunnelStepRowProps {
  step: DraftStep;
  /** Its place, from 0, and how many steps the funnel has. */
  index: number;
  count: number;
  /** The message under one of the step's fields (`path`, `name`, `property.key`, …), once saving was tried. */
  errorOf: (field: string) => string | undefined;
  /** The message about the step as a whole. */
  stepError: string | undefined;
  onChange: (change: Partial<DraftStep>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

/** One step of the funnel form: its kind, that kind's fields, and the buttons that move or remove it. */
export function FunnelStepRow({
  step,
  index,
  count,
  errorOf,
  stepError,
  onChange,
  onMove,
  onRemove,
}: FunnelStepRowProps) {
  return (
    <li data-step-id={step.id} className="rounded-lg border border-slate-200 p-3">
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-semibold text-slate-800">Step {index + 1}</legend>
        <div className="grid gap-3 sm:grid-cols-[12rem_1fr]">
          <SelectField
            label="Kind"
            value={step.kind}
            options={KIND_OPTIONS}
            onChange={(event) => onChange({ kind: event.target.value as typeof step.kind })}
          />
          {step.kind === 'page' && (
            <Input
              label={`Step ${index + 1} path pattern`}
              value={step.path}
              placeholder="/pricing/*"
              hint="* is one path segment, ** any number of them."
              error={errorOf('path')}
              onChange={(event) => onChange({ path: event.target.value })}
            />
          )}
          {step.kind === 'event' && (
            <div className="grid gap-3 sm:grid-cols-3">
              <Input
                label={`Step ${index + 1} event name`}
                value={step.name}
                placeholder="swap"
                error={errorOf('name')}
                onChange={(event) => onChange({ name: event.target.value })}
              />
              <Input
                label="Property (optional)"
                value={step.propertyKey}
                placeholder="pair"
                error={errorOf('property.key')}
                onChange={(event) => onChange({ propertyKey: event.target.value })}
              />
              <Input
                label="Value"
                value={step.propertyValue}
                placeholder="ETH/USDC"
                error={errorOf('property.value')}
                onChange={(event) => onChange({ propertyValue: event.target.value })}
              />
            </div>
          )}
          {step.kind === 'wallet_connected' && (
            <p className="self-end pb-2 text-sm text-slate-600">The user connects a wallet.</p>
          )}
          {step.kind === 'transaction' && (
            <SelectField
              label="Stage"
              value={step.stage}
              options={STAGE_OPTIONS}
              onChange={(event) => onChange({ stage: event.target.value as typeof step.stage })}
            />
          )}
        </div>
        {stepError && <p className="text-xs text-red-600">{stepError}</p>}
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="ghost"
            data-move="up"
            disabled={index === 0}
            aria-label={`Move step ${index + 1} up`}
            onClick={() => onMove(-1)}
          >
            <ArrowUp aria-hidden="true" className="size-4" /> Up
          </Button>
          <Button
            size="sm"
            variant="ghost"
            data-move="down"
            disabled={index === count - 1}
            aria-label={`Move step ${index + 1} down`}
            onClick={() => onMove(1)}
          >
            <ArrowDown aria-hidden="true" className="size-4" /> Down
          </Button>
          <Button
            size="sm"
            variant="ghost"
            data-remove
            disabled={count <= MIN_FUNNEL_STEPS}
            aria-label={`Remove step ${index + 1}`}
            onClick={onRemove}
          >
            <Trash2 aria-hidden="true" className="size-4" /> Remove
          </Button>
        </div>
      </fieldset>
    </li>
  );
}
