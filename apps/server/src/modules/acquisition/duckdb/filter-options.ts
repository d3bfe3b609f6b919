import type { DuckDBConnection } from '@duckdb/node-api';
import type { AcquisitionFilterOptions } from '@polyflow/contracts/acquisition';
import { IN_RANGE, rangeParams, rowsOf } from '../../analytics/duckdb/sql.ts';
import type { TimeRange } from '../../analytics/time-range.ts';

/** Result key → column; one GROUPING SETS pass reads all eight lists. */
const OPTION_COLUMNS: [keyof AcquisitionFilterOptions, string][] = [
  ['countries', 'country'],
  ['terms', 'utm_term'],
  ['sources', 'utm_source'],
  ['mediums', 'utm_medium'],
  ['campaigns', 'utm_campaign'],
  ['contents', 'utm_content'],
  ['browsers', 'browser'],
  ['walletProviders', 'wallet_provider'],
];

/** At most this many values per list, most users first: a multi-select, not an export. */
export const MAX_OPTIONS = 200;

/** The values the filter bar offers: every value seen in the range, with its distinct users. */
export async function filterOptions(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
): Promise<AcquisitionFilterOptions> {
  const columns = OPTION_COLUMNS.map(([, column]) => column);
  // Which grouping set a row belongs to: the index of the one column that is not rolled up.
  const setIndex = `CASE ${columns.map((column, index) => `WHEN GROUPING(${column}) = 0 THEN ${index}`).join(' ')} END`;
  const groupedValue = `coalesce(${columns.join(', ')})`;
  const sql = `
    WITH options AS (
      SELECT ${setIndex} AS set_index, ${groupedValue} AS value, count(DISTINCT user_id) AS users
        FROM events
       WHERE ${IN_RANGE}
       GROUP BY GROUPING SETS (${columns.map((column) => `(${column})`).join(', ')})
    )
    SELECT set_index::INTEGER AS set_index, value, users::DOUBLE AS users
      FROM options
     WHERE value IS NOT NULL AND trim(value) <> ''
     QUALIFY row_number() OVER (PARTITION BY set_index ORDER BY users DESC, value) <= ${MAX_OPTIONS}
     ORDER BY set_index, users DESC, value`;
  const rows = await rowsOf(connection, sql, rangeParams(projectId, range));
  const result = Object.fromEntries(
    OPTION_COLUMNS.map(([key]) => [key, []]),
  ) as unknown as AcquisitionFilterOptions;
  for (const row of rows) {
    const entry = OPTION_COLUMNS[Number(row.set_index)];
    if (entry) result[entry[0]].push({ value: String(row.value), users: Number(row.users) });
  }
  return result;
}
