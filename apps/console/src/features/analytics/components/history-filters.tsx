import { TransactionStatuses } from '@polyflow/contracts/analytics';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { X } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { shortenAddress } from '../../../lib/format';
import type { AnalyticsRange } from '../api/analytics-keys';
import { useContractFunctions } from '../api/get-contract-functions';
import {
  type HistoryFilter,
  isHistoryFiltered,
  NO_HISTORY_FILTER,
  searchProblem,
} from '../lib/history-filter';

const STATUS_LABELS: Record<(typeof TransactionStatuses)[number], string> = {
  requested: 'Requested (pending)',
  rejected: 'Rejected in the wallet',
  failed: 'Failed to send',
  submitted: 'Submitted',
  confirmed: 'Confirmed',
  reverted: 'Reverted',
  replaced: 'Replaced',
  dropped: 'Dropped',
};

const SELECT =
  'h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:outline-2 focus:outline-indigo-500';

function SelectField({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-xs font-semibold uppercase tracking-wide text-slate-600">
        {label}
      </label>
      <select
        id={id}
        className={SELECT}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
      >
        {children}
      </select>
    </div>
  );
}

/**
 * The history's search (Enter or Search) and filters (applied when chosen); contracts and functions are
 * those of the period's contract functions table. Every control is a labelled form field.
 */
export function HistoryFilters({
  range,
  filter,
  onChange,
}: {
  range: AnalyticsRange;
  filter: HistoryFilter;
  onChange: (changes: Partial<HistoryFilter>) => void;
}) {
  const [search, setSearch] = useState(filter.search ?? '');
  const [isSubmitted, setIsSubmitted] = useState(false);
  // A new URL (back button, Clear, a link) shows its own search.
  useEffect(() => setSearch(filter.search ?? ''), [filter.search]);
  const functions = useContractFunctions(range).data ?? [];
  const contracts = [...new Set(functions.map((row) => row.contract))];
  if (filter.contract && !contracts.includes(filter.contract)) contracts.push(filter.contract);
  const selectors = new Map<string, string>();
  for (const row of functions) {
    if (filter.contract && row.contract !== filter.contract) continue;
    if (row.selector === '0x') continue;
    if (!selectors.has(row.selector)) selectors.set(row.selector, row.functionName ?? row.selector);
  }
  if (filter.selector && !selectors.has(filter.selector)) selectors.set(filter.selector, filter.selector);
  const problem = isSubmitted ? searchProblem(search) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setIsSubmitted(true);
    if (searchProblem(search)) return;
    onChange({ search: search.trim() || null });
  };

  return (
    <form
      onSubmit={submit}
      aria-label="Search and filter transactions"
      className="grid grid-cols-2 items-start gap-3 lg:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))]"
    >
      <div className="col-span-2 flex min-w-0 items-start gap-2 lg:col-span-1">
        <Input
          label="Hash or wallet"
          placeholder="0x… (6+ hex characters)"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setIsSubmitted(false);
          }}
          error={problem}
          spellCheck={false}
          autoComplete="off"
          className="min-w-0 flex-1"
        />
        <Button type="submit" variant="secondary" className="mt-[1.375rem] shrink-0">
          Search
        </Button>
      </div>
      <SelectField label="Status" value={filter.status} onChange={(status) => onChange({ status })}>
        <option value="">Any status</option>
        {TransactionStatuses.map((status) => (
          <option key={status} value={status}>
            {STATUS_LABELS[status]}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Type"
        value={filter.type}
        onChange={(type) => onChange({ type: type as HistoryFilter['type'] })}
      >
        <option value="">Any type</option>
        <option value="Coin">Coin</option>
        <option value="Contract">Contract</option>
      </SelectField>
      <SelectField
        label="Contract"
        value={filter.contract}
        onChange={(contract) => onChange({ contract, selector: null })}
      >
        <option value="">Any contract</option>
        {contracts.map((contract) => (
          <option key={contract} value={contract}>
            {shortenAddress(contract)}
          </option>
        ))}
      </SelectField>
      <SelectField label="Function" value={filter.selector} onChange={(selector) => onChange({ selector })}>
        <option value="">Any function</option>
        {[...selectors].map(([selector, name]) => (
          <option key={selector} value={selector}>
            {name}
          </option>
        ))}
      </SelectField>
      {isHistoryFiltered(filter) && (
        <div className="col-span-2 lg:col-span-5">
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setSearch('');
              setIsSubmitted(false);
              onChange(NO_HISTORY_FILTER);
            }}
          >
            <X aria-hidden="true" className="size-3.5" /> Clear search and filters
          </Button>
        </div>
      )}
    </form>
  );
}
