import type { AcquisitionFilterOptions } from '@polyflow/contracts/acquisition';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { MAX_FILTER_OPTIONS } from '../../acquisition-questions.ts';
import type { ClickHouse } from '../client.ts';
import { count } from '../question-sql.ts';
import { EVENTS, IN_RANGE, rangeParams } from '../sql.ts';

const OptionRow = z.object({ name: z.string(), value: z.string(), users: count });

/** Events column → result key; a closed list, so no column name is ever input. */
const OPTION_COLUMNS: Record<string, keyof AcquisitionFilterOptions> = {
  country: 'countries',
  utm_term: 'terms',
  utm_source: 'sources',
  utm_medium: 'mediums',
  utm_campaign: 'campaigns',
  utm_content: 'contents',
  browser: 'browsers',
  wallet_provider: 'walletProviders',
};

/**
 * The values the filter bar offers: every value the events in the range carry, with its distinct users,
 * most users first (ties by value), at most MAX_FILTER_OPTIONS per list. One pass: each event becomes
 * one (column, value) row per column (ARRAY JOIN), blank values left out.
 */
export async function filterOptions(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
): Promise<AcquisitionFilterOptions> {
  const pairs = Object.keys(OPTION_COLUMNS)
    .map((column) => `('${column}', ${column})`)
    .join(', ');
  const rows = await clickhouse.rows(
    `SELECT option.1 AS name, assumeNotNull(option.2) AS value, uniqExact(user_id) AS users
       FROM ${EVENTS}
      ARRAY JOIN [${pairs}] AS option
      WHERE ${IN_RANGE} AND option.2 IS NOT NULL AND trimBoth(assumeNotNull(option.2)) != ''
      GROUP BY name, value
      ORDER BY name, users DESC, value
      LIMIT ${MAX_FILTER_OPTIONS} BY name`,
    rangeParams(projectId, range),
    OptionRow,
  );
  const result = Object.fromEntries(
    Object.values(OPTION_COLUMNS).map((key) => [key, []]),
  ) as unknown as AcquisitionFilterOptions;
  for (const row of rows) {
    const key = OPTION_COLUMNS[row.name];
    if (key) result[key].push({ value: row.value, users: row.users });
  }
  return result;
}
