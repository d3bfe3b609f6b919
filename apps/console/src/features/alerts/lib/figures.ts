import type { AlertSubject as Subject } from '@polyflow/contracts/alert-rules';

/** A notice's figures, e.g. {failRatePercent, transactions, failed, windowMinutes}. */
export type Figures = Record<string, number | string>;

/** The figures a notice carries, named as the console names them elsewhere (Analytics, Incident Tracking). */
const LABELS: Record<string, { label: string; unit?: string }> = {
  failRatePercent: { label: 'Fail rate', unit: '%' },
  transactions: { label: 'Transactions' },
  attempted: { label: 'Sent' },
  failed: { label: 'Failed' },
  windowMinutes: { label: 'Window', unit: ' min' },
  occurrences: { label: 'Occurrences' },
  threshold: { label: 'Threshold' },
  thresholdPercent: { label: 'Threshold', unit: '%' },
  hours: { label: 'Hours' },
  hoursSilent: { label: 'Silent for', unit: ' h' },
  severity: { label: 'Severity' },
  lastEventAt: { label: 'Last event' },
};

/** "failRatePercent" → "Fail rate"; an unknown key is split at its capitals: "minTransactions" → "Min transactions". */
function labelOf(key: string): string {
  const known = LABELS[key]?.label;
  if (known) return known;
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function formatFigures(figures: Figures): Array<{ key: string; label: string; value: string }> {
  return Object.entries(figures).map(([key, value]) => ({
    key,
    label: labelOf(key),
    value: `${typeof value === 'number' ? number.format(value) : value}${LABELS[key]?.unit ?? ''}`,
  }));
}

export function subjectText(subject: Subject): string {
  if (subject.kind === 'project') return 'The project';
  return subject.title ? `Incident: ${subject.title}` : `Incident ${subject.id}`;
}
