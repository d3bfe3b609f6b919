import { useId, useState } from 'react';
import { announce } from '../../../lib/announce';
import type { CohortOptions } from '../api/get-retention-cohorts';

type Split = Pick<CohortOptions, 'splitDimension' | 'splitValue'>;

const DIMENSIONS = ['source', 'medium', 'campaign'] as const;
const FORMAT = 'source, medium or campaign, then = and a value: source=discord';

/**
 * `source=discord` as the cohorts' split; empty text is every wallet. Anything else is no split: `null`,
 * so the form can say what it expects rather than ignore it.
 */
export function parseCohortSplit(text: string): Split | null {
  const trimmed = text.trim();
  if (trimmed === '') return { splitDimension: null, splitValue: null };
  const [dimension = '', ...rest] = trimmed.split('=');
  const value = rest.join('=').trim();
  const known = DIMENSIONS.find((candidate) => candidate === dimension.trim().toLowerCase());
  return known && value ? { splitDimension: known, splitValue: value } : null;
}

/** The "Only" field of the cohorts: its format shown, a value it cannot read said beside it (WCAG 3.3.1, 3.3.2). */
export function CohortSplitForm({ onApply }: { onApply: (split: Split) => void }) {
  const [text, setText] = useState('');
  const [isInvalid, setIsInvalid] = useState(false);
  const id = useId();
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const split = parseCohortSplit(text);
        setIsInvalid(split === null);
        if (split === null) {
          event.currentTarget.querySelector('input')?.focus();
          return;
        }
        onApply(split);
        announce(
          split.splitDimension
            ? `Cohorts of the wallets with ${split.splitDimension} ${split.splitValue}`
            : 'Cohorts of every wallet',
        );
      }}
    >
      <label htmlFor={id} className="text-xs font-semibold uppercase tracking-wide text-slate-600">
        Only
      </label>
      <input
        id={id}
        className="h-8 w-48 rounded-md px-2 text-xs ring-1 ring-inset ring-slate-300 aria-invalid:ring-red-600"
        placeholder="source=discord"
        value={text}
        aria-invalid={isInvalid || undefined}
        aria-describedby={`${id}-hint${isInvalid ? ` ${id}-error` : ''}`}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="text-xs font-semibold text-indigo-700">
        Apply
      </button>
      <p id={`${id}-hint`} className="w-full text-xs text-slate-600">
        Optional: {FORMAT}.
      </p>
      {isInvalid && (
        <p id={`${id}-error`} className="w-full text-xs font-medium text-red-700" role="alert">
          Write {FORMAT}; leave it empty for every wallet.
        </p>
      )}
    </form>
  );
}
