import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  DEFAULT_PERIOD,
  type PeriodSelection,
  periodFromSearchParams,
  periodToSearchParams,
} from '../components/ui/periods';

/**
 * The period of every screen, kept in the URL (`?period=…&from=…&to=…`) so that a reload or a shared link
 * shows the same figures. A period change is a step in the browser's history (Back returns to the previous
 * period), on every screen alike; the other parameters of the URL are kept.
 */
export function usePeriod(
  fallback: PeriodSelection = DEFAULT_PERIOD,
): [PeriodSelection, (selection: PeriodSelection) => void] {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  const fallbackKey = fallback.kind === 'preset' ? fallback.id : `${fallback.from}/${fallback.to}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the string forms are the identities of both.
  const selection = useMemo(() => periodFromSearchParams(params, fallback), [key, fallbackKey]);
  const select = useCallback(
    (next: PeriodSelection) => setParams((current) => periodToSearchParams(next, current)),
    [setParams],
  );
  return [selection, select];
}
