import type { AcquisitionFilterOptions } from '@polyflow/contracts/acquisition';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count, text } from '../../rows.ts';

/**
 * Every filterable value seen in the range with its distinct users, at most MAX_FILTER_OPTIONS (domain.ts)
 * per list, most users first (docs/acquisition-and-incidents.md#filters).
 */
export type FilterOptionsQuestion = {
  filterOptions(projectId: string, range: TimeRange): Promise<AcquisitionFilterOptions>;
};

/** One value of one list; `name` is the engine's own name of the list (its column or value set). */
export const OptionRow = z.object({ name: text, value: text, users: count });

/** The lists from the rows, each engine naming its lists in `keyOf`. */
export function filterOptionsOf(
  rows: readonly z.infer<typeof OptionRow>[],
  keyOf: Readonly<Record<string, keyof AcquisitionFilterOptions>>,
): AcquisitionFilterOptions {
  const result = Object.fromEntries(
    Object.values(keyOf).map((key) => [key, []]),
  ) as unknown as AcquisitionFilterOptions;
  for (const row of rows) {
    const key = keyOf[row.name];
    if (key) result[key].push({ value: row.value, users: row.users });
  }
  return result;
}
