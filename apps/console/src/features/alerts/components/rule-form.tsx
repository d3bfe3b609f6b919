import type { AlertChannel } from '@polyflow/contracts/alert-channels';
import {
  type AlertRule,
  DEFAULT_COOLDOWN_MINUTES,
  type AlertRuleKind as RuleKind,
  AlertRuleKinds as RuleKinds,
} from '@polyflow/contracts/alert-rules';
import { type FormEvent, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { SelectField } from '../../../components/ui/select-field';
import { focusFirstInvalid } from '../../../lib/focus-first-invalid';
import { useCreateAlertRule } from '../api/create-alert-rule';
import { useUpdateAlertRule } from '../api/update-alert-rule';
import {
  COOLDOWN_FIELD,
  defaultParamValues,
  fieldError,
  type ParamValues,
  parseParams,
  RULE_KINDS,
} from '../lib/rule-kinds';
import { ChannelPicker } from './channel-picker';
import { ParamField } from './param-field';
import { RulePreview } from './rule-preview';

export const MAX_RULE_NAME_LENGTH = 100;

interface RuleFormProps {
  projectId: string;
  channels: AlertChannel[];
  /** The rule being edited; without it the form creates one. */
  rule?: AlertRule;
  /** Called with the saved rule once saved, without one on Cancel. */
  onDone: (saved?: AlertRule) => void;
}

const stringsOf = (params: Record<string, number | string>): ParamValues =>
  Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)]));

/**
 * A rule's name, kind, kind-specific parameters, cooldown and channels, with the 7-day preview beside it.
 * A field's range error shows once it is left (or on submit); nothing is sent while one is out of range.
 */
export function RuleForm({ projectId, channels, rule, onDone }: RuleFormProps) {
  const [name, setName] = useState(rule?.name ?? '');
  const [kind, setKind] = useState<RuleKind>(rule?.kind ?? 'tx_fail_rate');
  const [values, setValues] = useState<ParamValues>(() =>
    rule
      ? { ...defaultParamValues(rule.kind), ...stringsOf(rule.params) }
      : defaultParamValues('tx_fail_rate'),
  );
  const [cooldown, setCooldown] = useState(String(rule?.cooldownMinutes ?? DEFAULT_COOLDOWN_MINUTES));
  const [channelIds, setChannelIds] = useState<string[]>(rule?.channelIds ?? []);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateAlertRule();
  const update = useUpdateAlertRule();
  const mutation = rule ? update : create;

  const params = parseParams(kind, values);
  const cooldownError = fieldError(COOLDOWN_FIELD, cooldown);
  const nameError = name.trim() === '' ? 'Give the rule a name' : null;
  const touch = (field: string) => setTouched((previous) => new Set(previous).add(field));
  const shows = (field: string) => submitted || touched.has(field);

  const onKindChange = (next: RuleKind) => {
    setKind(next);
    setValues(defaultParamValues(next));
    setTouched(new Set());
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (params === null || cooldownError !== null || nameError !== null) {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    const fields = { name: name.trim(), params, channelIds, cooldownMinutes: Number(cooldown) };
    const done = { onSuccess: (saved: AlertRule) => onDone(saved) };
    if (rule) update.mutate({ projectId, ruleId: rule.id, change: fields }, done);
    else create.mutate({ projectId, rule: { ...fields, kind } }, done);
  };

  const formLabel = rule ? `Edit the rule ${rule.name}` : 'New alert rule';
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <form onSubmit={onSubmit} aria-label={formLabel} noValidate className="flex flex-col gap-4">
        <div className="grid gap-3 sm:grid-cols-2">
          <Input
            label="Name"
            value={name}
            maxLength={MAX_RULE_NAME_LENGTH}
            placeholder="E.g. Checkout transactions failing"
            required
            error={shows('name') ? (nameError ?? undefined) : undefined}
            onChange={(event) => setName(event.target.value)}
            onBlur={() => touch('name')}
          />
          <SelectField
            label="When"
            value={kind}
            disabled={rule !== undefined}
            hint={rule ? "A rule's kind stays the one it was created with." : undefined}
            onChange={(event) => onKindChange(event.target.value as RuleKind)}
            options={RuleKinds.map((value) => ({ value, label: RULE_KINDS[value].label }))}
          />
        </div>
        <p className="text-sm text-slate-700">{RULE_KINDS[kind].description}</p>
        <div className="grid gap-3 sm:grid-cols-3">
          {RULE_KINDS[kind].fields.map((field) => (
            <ParamField
              key={`${kind}-${field.name}`}
              field={field}
              value={values[field.name] ?? ''}
              showError={shows(field.name)}
              onChange={(value) => setValues((previous) => ({ ...previous, [field.name]: value }))}
              onBlur={() => touch(field.name)}
            />
          ))}
          <ParamField
            field={COOLDOWN_FIELD}
            value={cooldown}
            showError={shows('cooldownMinutes')}
            onChange={setCooldown}
            onBlur={() => touch('cooldownMinutes')}
          />
        </div>
        <ChannelPicker channels={channels} selected={channelIds} onChange={setChannelIds} />
        {mutation.isError && <Alert tone="error">{mutation.error.message}</Alert>}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" isLoading={mutation.isPending}>
            {rule ? 'Save changes' : 'Create rule'}
          </Button>
          <Button variant="secondary" onClick={() => onDone()}>
            Cancel
          </Button>
        </div>
      </form>
      <RulePreview
        projectId={projectId}
        input={
          params === null || cooldownError !== null
            ? null
            : { kind, params, cooldownMinutes: Number(cooldown) }
        }
      />
    </div>
  );
}
