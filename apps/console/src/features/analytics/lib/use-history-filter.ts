import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { type HistoryFilter, readHistoryFilter, writeHistoryFilter } from './history-filter';

/** The history's filter, read from and written to the URL (`txSearch`, `txStatus`, …). */
export function useHistoryFilter(): [HistoryFilter, (changes: Partial<HistoryFilter>) => void] {
  const [params, setParams] = useSearchParams();
  const change = useCallback(
    (changes: Partial<HistoryFilter>) => setParams((current) => writeHistoryFilter(current, changes)),
    [setParams],
  );
  return [readHistoryFilter(params), change];
}
