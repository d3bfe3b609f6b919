import type { AcquisitionFilterOptions } from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { inWholeDays, rangeParts } from '../../clickhouse/day-parts.ts';
import { VALUE_SETS } from '../../clickhouse/session-days.ts';
import { partialDayParts } from '../../clickhouse/session-rows.ts';
import { MAX_FILTER_OPTIONS } from '../../domain.ts';
import { filterOptionsOf, OptionRow } from './question.ts';

/** Session value set → result key; a closed list, so no column name is ever input. */
const OPTION_SETS: Record<(typeof VALUE_SETS)[number], keyof AcquisitionFilterOptions> = {
  countries: 'countries',
  utm_terms: 'terms',
  utm_sources: 'sources',
  utm_mediums: 'mediums',
  utm_campaigns: 'campaigns',
  utm_contents: 'contents',
  browsers: 'browsers',
  wallet_providers: 'walletProviders',
};

/**
 * The values the filter bar offers: every value the events in the range carry, with its distinct users,
 * most users first (ties by value), at most MAX_FILTER_OPTIONS per list, blank values left out.
 *
 * The range's whole days are read from `user_value_sets` (session-days.ts, ADR 039): a user's value sets
 * with the days they held, about one row per user where `session_days` has one per user and day; a row
 * counts when one of its days is in the range. Its partial days at either end are aggregated from
 * `events` as `session_days` is (session-rows.ts). Each row becomes one (set, value) row per value (ARRAY
 * JOIN), and a user counted in several rows of one value counts once: the rows are not made distinct per
 * (user, sets) first (the table's key already nearly is; a DISTINCT cost about 6 ms more to plan).
 */
export async function filterOptions(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
): Promise<AcquisitionFilterOptions> {
  const parts = rangeParts(range);
  const params: Params = { project: projectId, ...parts.params };
  const sets = VALUE_SETS.map((set) => `m_${set}`).join(', ');
  const selects = partialDayParts(VALUE_SETS, parts.edges, params).map(
    (edge) => `SELECT user_id, ${sets} FROM (${edge})`,
  );
  if (parts.days)
    selects.push(`SELECT user_id, ${VALUE_SETS.map((set) => `${set} AS m_${set}`).join(', ')}
          FROM user_value_sets
         WHERE project_id = {project:String}
           AND arrayExists(day -> ${inWholeDays()}, days)`);
  const pairs = VALUE_SETS.map((set) => `arrayMap(v -> ('${set}', v), m_${set})`).join(', ');
  const rows = await clickhouse.rows(
    `SELECT option.1 AS name, option.2 AS value, uniqExact(user_id) AS users
       FROM (${selects.join('\n        UNION ALL\n        ')})
      ARRAY JOIN arrayConcat(${pairs}) AS option
      WHERE trimBoth(option.2) != ''
      GROUP BY name, value
      ORDER BY name, users DESC, value
      LIMIT ${MAX_FILTER_OPTIONS} BY name`,
    params,
    OptionRow,
  );
  return filterOptionsOf(rows, OPTION_SETS);
}
