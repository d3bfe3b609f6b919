import type { Figures } from '../lib/figures';
import { formatFigures } from '../lib/figures';

/** A notice's figures as "Fail rate 25%  Transactions 40 …", wrapping on a phone. */
export function FigureList({ figures }: { figures: Figures }) {
  const items = formatFigures(figures);
  if (items.length === 0) return null;
  return (
    <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
      {items.map(({ key, label, value }) => (
        <div key={key} className="flex gap-1">
          <dt>{label}</dt>
          <dd className="font-semibold text-slate-900 tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
