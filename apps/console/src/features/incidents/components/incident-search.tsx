import { useEffect, useRef, useState } from 'react';
import { Search } from '../../../components/ui/icons';

export const SEARCH_DEBOUNCE_MS = 300;

/** Typing waits for a pause before searching on the server; Enter searches at once. */
export function IncidentSearch({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef(onSearch);
  latest.current = onSearch;

  // The URL changed by other means (back button, a shared link): show what is searched.
  useEffect(() => {
    setText((current) => (current.trim() === value ? current : value));
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const schedule = (next: string) => {
    setText(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => latest.current(next), SEARCH_DEBOUNCE_MS);
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is not yet known to every screen reader.
    <form
      role="search"
      className="relative w-full sm:w-auto sm:max-w-md sm:min-w-64 sm:flex-1"
      onSubmit={(event) => {
        event.preventDefault();
        clearTimeout(timer.current);
        onSearch(text);
      }}
    >
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
      />
      <input
        type="search"
        aria-label="Search incidents"
        placeholder="Search by wallet, type or error text"
        value={text}
        maxLength={200}
        onChange={(event) => schedule(event.target.value)}
        className="h-10 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm text-slate-900 focus:outline-2 focus:outline-indigo-500"
      />
    </form>
  );
}
