import {
  type AnalyticsFilterKey,
  AnalyticsFilterKeys,
  type AnalyticsFilters,
} from '@polyflow/contracts/analytics';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** A filter value as the URL and the chips hold it (chain ids as their decimal text). */
export type FilterValue = string;

/**
 * The Analytics screen's filters (docs/analytics.md, "Filters"), kept in the URL under the contract's
 * names, one parameter per value (`countries=US&countries=DE`: UTM values and paths may hold commas), as
 * the Acquisition screen keeps its own. Only lists with values; chain ids that are not positive integers
 * are dropped. Adding or removing one is a step in the browser's history (Back undoes it).
 */
export function readAnalyticsFilters(params: URLSearchParams): AnalyticsFilters {
  const filters: AnalyticsFilters = {};
  for (const key of AnalyticsFilterKeys) {
    const values = [...new Set(params.getAll(key).filter((value) => value.length > 0))].slice(0, 100);
    if (key === 'chains') {
      const chains = values.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0);
      if (chains.length > 0) filters.chains = chains;
    } else if (values.length > 0) filters[key] = values;
  }
  return filters;
}

export function useAnalyticsFilters() {
  const [params, setParams] = useSearchParams();
  const key = AnalyticsFilterKeys.map((name) => params.getAll(name).join('\u0000')).join('\u0001');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filters' own parameters are their identity.
  const filters = useMemo(() => readAnalyticsFilters(params), [key]);

  /** Adds a value to a list (a value already there stays once). */
  const addFilter = useCallback(
    (name: AnalyticsFilterKey, value: FilterValue) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (!next.getAll(name).includes(value)) next.append(name, value);
        return next;
      }),
    [setParams],
  );
  const removeFilter = useCallback(
    (name: AnalyticsFilterKey, value: FilterValue) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        const kept = next.getAll(name).filter((item) => item !== value);
        next.delete(name);
        for (const item of kept) next.append(name, item);
        return next;
      }),
    [setParams],
  );
  const clearFilters = useCallback(
    () =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        for (const name of AnalyticsFilterKeys) next.delete(name);
        return next;
      }),
    [setParams],
  );
  return { filters, addFilter, removeFilter, clearFilters };
}
