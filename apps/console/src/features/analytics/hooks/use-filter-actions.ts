import {
  type AnalyticsFilterKey,
  AnalyticsFilterKeys,
  type AnalyticsFilters,
} from '@polyflow/contracts/analytics';
import { useEffect, useRef } from 'react';
import { announce, focusSoon } from '../../../lib/announce';
import { FILTER_LABELS, filterValueLabel } from '../components/filter-select';
import { type FilterValue, useAnalyticsFilters } from './use-analytics-filters';

export interface Chip {
  name: AnalyticsFilterKey;
  value: FilterValue;
}

/** The filters in the order their chips show. */
export const chipsOf = (filters: AnalyticsFilters): Chip[] =>
  AnalyticsFilterKeys.flatMap((name) =>
    (filters[name] ?? []).map((value) => ({ name, value: String(value) })),
  );

export const chipLabel = ({ name, value }: Chip) =>
  `${FILTER_LABELS[name]}: ${filterValueLabel(name, value)}`;
export const removeLabel = (chip: Chip) => `Remove filter ${chipLabel(chip)}`;

const buttonNamed = (label: string | null | undefined) =>
  label
    ? ([...document.querySelectorAll<HTMLElement>('[aria-label]')].find(
        (element) => element.getAttribute('aria-label') === label,
      ) ?? null)
    : null;

const hasChip = (filters: AnalyticsFilters, chip: Chip) =>
  chipsOf(filters).some((item) => item.name === chip.name && item.value === chip.value);

interface PendingFocus {
  /** True once the filters the action asked for are on screen (the URL change is a navigation). */
  isDone: (filters: AnalyticsFilters) => boolean;
  find: () => HTMLElement | null;
}

/**
 * The filters with what a keyboard and a screen reader need around each change (WCAG 2.4.3, 4.1.3):
 * adding one keeps focus on the control that was activated if it is still there (else the new chip),
 * removing one moves it to the next chip, else the previous, else `fallbackId` (the card's heading);
 * each change is announced. The cards re-render while the new answers load, so focus is placed once
 * the filters have changed on screen, not at once.
 */
export function useFilterActions(fallbackId: string) {
  const { filters, addFilter, removeFilter, clearFilters } = useAnalyticsFilters();
  const pending = useRef<PendingFocus | null>(null);

  useEffect(() => {
    const focus = pending.current;
    if (!focus?.isDone(filters)) return;
    pending.current = null;
    focusSoon(focus.find);
  }, [filters]);

  const select = (name: AnalyticsFilterKey, value: FilterValue) => {
    const chip = { name, value };
    if (hasChip(filters, chip)) {
      announce(`Filter ${chipLabel(chip)} is already on`);
      return;
    }
    const active = document.activeElement;
    const control = active instanceof HTMLElement && active !== document.body ? active : null;
    const controlLabel = control?.getAttribute('aria-label');
    pending.current = {
      isDone: (next) => hasChip(next, chip),
      find: () =>
        (control?.isConnected ? control : buttonNamed(controlLabel)) ?? buttonNamed(removeLabel(chip)),
    };
    addFilter(name, value);
    const count = chipsOf(filters).length + 1;
    announce(
      `Filter ${chipLabel(chip)} added; the screen shows ${
        count === 1 ? `only ${chipLabel(chip)}` : `what matches ${count} filters`
      }`,
    );
  };

  const remove = (name: AnalyticsFilterKey, value: FilterValue) => {
    const chips = chipsOf(filters);
    const index = chips.findIndex((item) => item.name === name && item.value === value);
    const neighbour = chips[index + 1] ?? chips[index - 1];
    const chip = { name, value };
    pending.current = {
      isDone: (next) => !hasChip(next, chip),
      find: () => (neighbour ? buttonNamed(removeLabel(neighbour)) : document.getElementById(fallbackId)),
    };
    removeFilter(name, value);
    announce(`Filter ${chipLabel(chip)} removed`);
  };

  const clear = () => {
    pending.current = {
      isDone: (next) => chipsOf(next).length === 0,
      find: () => document.getElementById(fallbackId),
    };
    clearFilters();
    announce('Filters cleared; the screen shows everything in the period');
  };

  return { filters, select, remove, clear };
}
