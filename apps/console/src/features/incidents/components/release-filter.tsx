import { useEffect, useState } from 'react';
import { Tag, X } from '../../../components/ui/icons';

/**
 * The release filter: incidents with an occurrence from that release in the period (docs/releases.md).
 * Applied on Enter or when the field is left; the × clears it.
 */
export function ReleaseFilter({ value, onChange }: { value: string; onChange: (release: string) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const apply = () => {
    if (text.trim() !== value) onChange(text);
  };
  return (
    <form
      className="relative w-full sm:w-52 sm:shrink-0"
      onSubmit={(event) => {
        event.preventDefault();
        apply();
      }}
    >
      <Tag
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
      />
      <input
        type="text"
        aria-label="Release"
        placeholder="Release, e.g. 1.4.2"
        value={text}
        maxLength={64}
        onChange={(event) => setText(event.target.value)}
        onBlur={apply}
        className="h-10 w-full rounded-lg border border-slate-300 bg-white pr-9 pl-9 font-mono text-sm text-slate-900 placeholder:font-sans focus:outline-2 focus:outline-indigo-500"
      />
      {value && (
        <button
          type="button"
          aria-label="Clear the release filter"
          onClick={() => onChange('')}
          className="absolute top-1/2 right-2 -translate-y-1/2 rounded p-1 text-slate-500 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-500"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      )}
    </form>
  );
}
