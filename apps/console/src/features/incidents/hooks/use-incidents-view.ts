import {
  type IncidentStatus,
  IncidentStatuses,
  Severities,
  type Severity,
} from '@polyflow/contracts/incidents';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { PeriodSelection } from '../../../components/ui/periods';
import { usePeriod } from '../../../hooks/use-period';

/** Spec: the list shows the last 7 days unless told otherwise. */
export const DEFAULT_INCIDENT_PERIOD: PeriodSelection = { kind: 'preset', id: '7d' };

export interface IncidentsView {
  selection: PeriodSelection;
  search: string;
  severities: Severity[];
  /** Open (the default, regressions included), resolved or ignored. */
  status: IncidentStatus;
  /** `me`, `none` (unassigned), a member's user id, or null: anyone. */
  assignee: string | null;
}

/** The list's period, search and severity filter live in the URL: a search can be shared or reloaded. */
export function useIncidentsView() {
  const [params, setParams] = useSearchParams();
  const [selection, setSelection] = usePeriod(DEFAULT_INCIDENT_PERIOD);
  const view: IncidentsView = useMemo(
    () => ({
      selection,
      search: params.get('q') ?? '',
      severities: Severities.filter((severity) => params.getAll('severity').includes(severity)),
      status: IncidentStatuses.find((status) => status === params.get('status')) ?? 'open',
      assignee: params.get('assignee') || null,
    }),
    [params, selection],
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
  const setStatus = useCallback(
    (status: IncidentStatus) =>
      update((next) => {
        if (status === 'open') next.delete('status');
        else next.set('status', status);
      }),
    [update],
  );
  const setAssignee = useCallback(
    (assignee: string | null) =>
      update((next) => {
        if (assignee) next.set('assignee', assignee);
        else next.delete('assignee');
      }),
    [update],
  );
  return { view, params, setSelection, setSearch, toggleSeverity, setStatus, setAssignee };
}
