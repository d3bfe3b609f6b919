import {
  type AcquisitionFilterKey,
  AcquisitionFilterKeys,
  type AcquisitionFilters,
  type AttributionDimension,
  AttributionDimensions,
} from '@polyflow/contracts/acquisition';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { PeriodSelection } from '../../../components/ui/periods';
import { usePeriod } from '../../../hooks/use-period';
import { type AttributionSortKey, AttributionSortKeys, type SortDirection } from '../lib/attribution-columns';

export const DEFAULT_ACQUISITION_PERIOD: PeriodSelection = { kind: 'preset', id: '30d' };

export interface AttributionSort {
  key: AttributionSortKey;
  direction: SortDirection;
}

/** Everything that defines a view of the screen; all of it lives in the URL so a view can be shared. */
export interface AcquisitionView {
  selection: PeriodSelection;
  /** Only the filters with values. */
  filters: AcquisitionFilters;
  dimension: AttributionDimension;
  /** null: the server's order (most sessions first). */
  sort: AttributionSort | null;
}

function readFilters(params: URLSearchParams): AcquisitionFilters {
  const filters: AcquisitionFilters = {};
  for (const key of AcquisitionFilterKeys) {
    // Repeated params (`countries=US&countries=DE`) rather than commas: UTM values may hold commas.
    const values = [...new Set(params.getAll(key).filter((value) => value.length > 0))];
    if (values.length > 0) filters[key] = values.slice(0, 100);
  }
  return filters;
}

function readDimension(params: URLSearchParams): AttributionDimension {
  const value = params.get('tab');
  return (AttributionDimensions as readonly string[]).includes(value ?? '')
    ? (value as AttributionDimension)
    : 'campaign';
}

function readSort(params: URLSearchParams): AttributionSort | null {
  const key = params.get('sort');
  if (!key || !(AttributionSortKeys as readonly string[]).includes(key)) return null;
  return { key: key as AttributionSortKey, direction: params.get('dir') === 'asc' ? 'asc' : 'desc' };
}

export function useAcquisitionView() {
  const [params, setParams] = useSearchParams();
  const [selection, setSelection] = usePeriod(DEFAULT_ACQUISITION_PERIOD);
  const view: AcquisitionView = useMemo(
    () => ({
      selection,
      filters: readFilters(params),
      dimension: readDimension(params),
      sort: readSort(params),
    }),
    [params, selection],
  );

  const update = useCallback(
    (change: (next: URLSearchParams) => URLSearchParams | undefined) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          return change(next) ?? next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const setFilter = useCallback(
    (key: AcquisitionFilterKey, values: readonly string[]) =>
      update((next) => {
        next.delete(key);
        for (const value of values) next.append(key, value);
        return next;
      }),
    [update],
  );
  const clearFilters = useCallback(
    () =>
      update((next) => {
        for (const key of AcquisitionFilterKeys) next.delete(key);
        return next;
      }),
    [update],
  );
  const setDimension = useCallback(
    (dimension: AttributionDimension) =>
      update((next) => {
        if (dimension === 'campaign') next.delete('tab');
        else next.set('tab', dimension);
        return next;
      }),
    [update],
  );
  const setSort = useCallback(
    (sort: AttributionSort | null) =>
      update((next) => {
        next.delete('sort');
        next.delete('dir');
        if (sort) {
          next.set('sort', sort.key);
          next.set('dir', sort.direction);
        }
        return next;
      }),
    [update],
  );

  return { view, setSelection, setFilter, clearFilters, setDimension, setSort };
}
