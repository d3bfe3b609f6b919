import { Severities, type Severity } from '@polyflow/contracts/incidents';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { type PeriodSelection, readPeriod, writePeriod } from '../../acquisition/lib/period';

/** Spec: the list shows the last 7 days unless told otherwise. */
export const DEFAULT_INCIDENT_PERIOD = '7d' as const;

export interface IncidentsView {
  selection: PeriodSelection;
  search: string;
  severities: Severity[];
}

/** The list's period, search and severity filter live in the URL: a search can be shared or reloaded. */
export function useIncidentsView() {
  const [params, setParams] = useSearchParams();
  const view: IncidentsView = useMemo(
    () => ({
      selection: readPeriod(params, DEFAULT_INCIDENT_PERIOD),
      search: params.get('q') ?? '',
      severities: Severities.filter((severity) => params.getAll('severity').includes(severity)),
    }),
    [params],
  );
  const update = useCallback(
    (change: (next: URLSearchParams) => void) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          change(next);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const setSelection = useCallback(
    (selection: PeriodSelection) =>
      setParams((current) => writePeriod(current, selection), { replace: true }),
    [setParams],
  );
  const setSearch = useCallback(
    (search: string) =>
      update((next) => {
        if (search.trim()) next.set('q', search.trim());
        else next.delete('q');
      }),
    [update],
  );
  const toggleSeverity = useCallback(
    (severity: Severity) =>
      update((next) => {
        const current = next.getAll('severity');
        next.delete('severity');
        const wanted = current.includes(severity)
          ? current.filter((item) => item !== severity)
          : [...current, severity];
        for (const item of wanted) next.append('severity', item);
      }),
    [update],
  );
  return { view, params, setSelection, setSearch, toggleSeverity };
}
