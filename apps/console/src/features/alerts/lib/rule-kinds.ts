import {
  DEFAULT_COOLDOWN_MINUTES,
  MAX_COOLDOWN_MINUTES,
  type AlertRuleKind as RuleKind,
} from '@polyflow/contracts/alert-rules';
import { SeverityLabels as SEVERITY_LABELS, Severities, type Severity } from '@polyflow/contracts/incidents';

/**
 * Each rule kind's parameters, their ranges and words (issue 27, docs/alerts.md). The form, the list and
 * the checks before a request all read this one table; the server checks the same ranges again.
 */

export type ParamField =
  | {
      kind: 'number';
      name: string;
      label: string;
      min: number;
      max?: number;
      /** Whole numbers only (minutes, counts, hours). */
      integer: boolean;
      unit?: string;
      defaultValue: number;
    }
  | { kind: 'severity'; name: string; label: string; defaultValue: Severity };

interface KindInfo {
  label: string;
  /** When it fires, in a sentence. */
  description: string;
  fields: ParamField[];
}

export const RULE_KINDS: Record<RuleKind, KindInfo> = {
  tx_fail_rate: {
    label: 'Transaction fail rate',
    description:
      'The share of failed transactions over the window is above the threshold, with at least the minimum number of transactions.',
    fields: [
      {
        kind: 'number',
        name: 'windowMinutes',
        label: 'Window',
        min: 5,
        max: 1440,
        integer: true,
        unit: 'minutes',
        defaultValue: 60,
      },
      {
        kind: 'number',
        name: 'thresholdPercent',
        label: 'Fail rate above',
        min: 0,
        max: 100,
        integer: false,
        unit: '%',
        defaultValue: 10,
      },
      {
        kind: 'number',
        name: 'minTransactions',
        label: 'At least',
        min: 1,
        integer: true,
        unit: 'transactions',
        defaultValue: 20,
      },
    ],
  },
  new_incident: {
    label: 'New incident',
    description: 'An incident is seen for the first time with at least the chosen severity.',
    fields: [{ kind: 'severity', name: 'minSeverity', label: 'Minimum severity', defaultValue: 'high' }],
  },
  incident_regression: {
    label: 'Incident regression',
    description: 'An incident that was resolved occurs again.',
    fields: [],
  },
  incident_spike: {
    label: 'Incident spike',
    description: 'One incident occurs at least the threshold number of times within the window.',
    fields: [
      {
        kind: 'number',
        name: 'threshold',
        label: 'Occurrences',
        min: 1,
        integer: true,
        unit: 'or more',
        defaultValue: 50,
      },
      {
        kind: 'number',
        name: 'windowMinutes',
        label: 'Window',
        min: 5,
        max: 1440,
        integer: true,
        unit: 'minutes',
        defaultValue: 60,
      },
    ],
  },
  no_events: {
    label: 'No events',
    description:
      'The project has received no event for the chosen number of hours (an integration broke or a key was revoked).',
    fields: [
      {
        kind: 'number',
        name: 'hours',
        label: 'Silent for',
        min: 1,
        max: 168,
        integer: true,
        unit: 'hours',
        defaultValue: 6,
      },
    ],
  },
};

export const COOLDOWN_FIELD: ParamField = {
  kind: 'number',
  name: 'cooldownMinutes',
  label: 'Cooldown',
  min: 0,
  max: MAX_COOLDOWN_MINUTES,
  integer: true,
  unit: 'minutes',
  defaultValue: DEFAULT_COOLDOWN_MINUTES,
};

export type ParamValues = Record<string, string>;

export function defaultParamValues(kind: RuleKind): ParamValues {
  return Object.fromEntries(RULE_KINDS[kind].fields.map((field) => [field.name, String(field.defaultValue)]));
}

/** "Between 5 and 1440", "1 or more": the range in words, shown under the field and in its error. */
export function rangeText(field: ParamField): string {
  if (field.kind === 'severity') return '';
  const whole = field.integer ? 'a whole number ' : 'a number ';
  return field.max === undefined
    ? `${whole}of ${field.min} or more`
    : `${whole}from ${field.min} to ${field.max}`;
}

/** Why the typed value is not acceptable, or null when it is. */
export function fieldError(field: ParamField, raw: string): string | null {
  if (field.kind === 'severity')
    return (Severities as readonly string[]).includes(raw) ? null : 'Choose a severity';
  const text = raw.trim();
  const value = Number(text);
  const valid =
    text !== '' &&
    Number.isFinite(value) &&
    (!field.integer || Number.isInteger(value)) &&
    value >= field.min &&
    (field.max === undefined || value <= field.max);
  return valid ? null : `${field.label} must be ${rangeText(field)}`;
}

/** The parameters as the server takes them, or null while any is not acceptable. */
export function parseParams(kind: RuleKind, values: ParamValues): Record<string, number | string> | null {
  const params: Record<string, number | string> = {};
  for (const field of RULE_KINDS[kind].fields) {
    const raw = values[field.name] ?? '';
    if (fieldError(field, raw) !== null) return null;
    params[field.name] = field.kind === 'severity' ? raw : Number(raw.trim());
  }
  return params;
}

/** "Fail rate above 10% over 60 minutes, at least 20 transactions": a rule's parameters in one line. */
export function describeParams(kind: RuleKind, params: Record<string, number | string>): string {
  const p = (name: string) => params[name] ?? '?';
  switch (kind) {
    case 'tx_fail_rate':
      return `Fail rate above ${p('thresholdPercent')}% over ${p('windowMinutes')} minutes, at least ${p('minTransactions')} transactions`;
    case 'new_incident': {
      const severity = String(p('minSeverity'));
      return `A new incident of severity ${SEVERITY_LABELS[severity as keyof typeof SEVERITY_LABELS] ?? severity} or higher`;
    }
    case 'incident_regression':
      return 'A resolved incident occurs again';
    case 'incident_spike':
      return `One incident ${p('threshold')} times or more within ${p('windowMinutes')} minutes`;
    case 'no_events':
      return `No event for ${p('hours')} hours`;
  }
}
