import { TransactionStatuses } from '@polyflow/contracts/analytics';

/**
 * The Transaction History's search and filters (docs/analytics.md#searching-and-filtering-the-history),
 * kept in the URL under their own `tx…` names so that the screen's other filters never collide with them.
 */
export interface HistoryFilter {
  search: string | null;
  status: string | null;
  type: 'Coin' | 'Contract' | null;
  contract: string | null;
  /** The function's selector. */
  selector: string | null;
}

export const HISTORY_PARAMS = {
  search: 'txSearch',
  status: 'txStatus',
  type: 'txType',
  contract: 'txContract',
  selector: 'txFunction',
} as const satisfies Record<keyof HistoryFilter, string>;

export const NO_HISTORY_FILTER: HistoryFilter = {
  search: null,
  status: null,
  type: null,
  contract: null,
  selector: null,
};

/** A hash or wallet, or its first 6 or more hex digits; `0x` optional, any case (as the server). */
const SEARCH = /^(?:0x)?[0-9a-f]{6,64}$/i;

/** What is wrong with a typed search, or undefined when the server will take it (blank: no search). */
export function searchProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed || SEARCH.test(trimmed)) return undefined;
  return 'A transaction hash or wallet address, or its first 6 or more hex characters';
}

const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | null =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : null;

/** The filter in the URL; a value the server would refuse is dropped (an edited or stale link). */
export function readHistoryFilter(params: URLSearchParams): HistoryFilter {
  const search = params.get(HISTORY_PARAMS.search);
  const contract = params.get(HISTORY_PARAMS.contract);
  const selector = params.get(HISTORY_PARAMS.selector);
  return {
    search: search && !searchProblem(search) ? search.trim() : null,
    status: oneOf(params.get(HISTORY_PARAMS.status), TransactionStatuses),
    type: oneOf(params.get(HISTORY_PARAMS.type), ['Coin', 'Contract'] as const),
    contract: contract && /^0x[0-9a-f]{40}$/i.test(contract) ? contract.toLowerCase() : null,
    selector: selector && /^0x[0-9a-f]{8}$/i.test(selector) ? selector.toLowerCase() : null,
  };
}

/** The URL's parameters with the filter's changes; a null or blank value removes its parameter. */
export function writeHistoryFilter(
  params: URLSearchParams,
  changes: Partial<HistoryFilter>,
): URLSearchParams {
  const updated = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes) as [keyof HistoryFilter, string | null][]) {
    if (value?.trim()) updated.set(HISTORY_PARAMS[key], value.trim());
    else updated.delete(HISTORY_PARAMS[key]);
  }
  return updated;
}

export const isHistoryFiltered = (filter: HistoryFilter): boolean =>
  Object.values(filter).some((value) => value !== null);

/** The filter as the server's arguments (GraphQL variables, the CSV's query): only the parts set. */
export function historyFilterArgs(filter: HistoryFilter): Partial<Record<keyof HistoryFilter, string>> {
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== null));
}
