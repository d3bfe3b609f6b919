import { Severities, SeverityLabels } from '@polyflow/contracts/incidents';
import { Input } from '../../../components/ui/input';
import { SelectField } from '../../../components/ui/select-field';
import { type ParamField as Field, fieldError, rangeText } from '../lib/rule-kinds';

interface ParamFieldProps {
  field: Field;
  value: string;
  /** Show the error (after the field was left or the form submitted), not while the first digit is typed. */
  showError: boolean;
  disabled?: boolean;
  onChange: (value: string) => void;
  onBlur: () => void;
}

/** One rule parameter: a number with its range and unit in the hint, or the severity select. */
export function ParamField({ field, value, showError, disabled, onChange, onBlur }: ParamFieldProps) {
  if (field.kind === 'severity') {
    return (
      <SelectField
        label={field.label}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        options={Severities.map((severity) => ({ value: severity, label: SeverityLabels[severity] }))}
        hint="Low, Mid, High, Severe: the incident's severity when first seen, or higher."
      />
    );
  }
  const error = showError ? (fieldError(field, value) ?? undefined) : undefined;
  return (
    <Input
      label={field.unit ? `${field.label} (${field.unit})` : field.label}
      type="number"
      inputMode={field.integer ? 'numeric' : 'decimal'}
      min={field.min}
      max={field.max}
      step={field.integer ? 1 : 'any'}
      required
      value={value}
      disabled={disabled}
      error={error}
      hint={`${rangeText(field).replace(/^a/, 'A')}.`}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
    />
  );
}
