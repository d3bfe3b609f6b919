import type { AcquisitionFilterOptions } from '@polyflow/contracts/acquisition';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { MAX_FILTER_OPTIONS } from '../../acquisition-questions.ts';
import type { ClickHouse } from '../client.ts';
import { count } from '../question-sql.ts';
import type { SessionAggregate } from '../session-days.ts';
import { sessionParts } from '../session-rows.ts';

const OptionRow = z.object({ name: z.string(), value: z.string(), users: count });

/** Session value set → result key; a closed list, so no column name is ever input. */
const OPTION_SETS: Record<string, keyof AcquisitionFilterOptions> = {
  countries: 'countries',
  utm_terms: 'terms',
  utm_sources: 'sources',
  utm_mediums: 'mediums',
  utm_campaigns: 'campaigns',
  utm_contents: 'contents',
  browsers: 'browsers',
  wallet_providers: 'walletProviders',
} satisfies Partial<Record<SessionAggregate, keyof AcquisitionFilterOptions>>;

/**
 * The values the filter bar offers: every value the events in the range carry, with its distinct users,
 * most users first (ties by value), at most MAX_FILTER_OPTIONS per list, blank values left out. Read from
 * the sessions' value sets of the range (session-rows.ts): each row becomes one (set, value) row per
 * value (ARRAY JOIN); a user counted in several rows of one value counts once.
 *
 * A user's rows mostly carry the very same sets (their country, browser, wallet and landing UTM hold
 * from day to day), so the rows are first made distinct per (user, sets): on the bench's largest project
 * that leaves one row of 11 before the ARRAY JOIN, whose (set, value, user) rows were the cost (ADR 038).
 * Rows whose sets differ stay apart (and so do equal sets in another order): the distinct users per value
 * are the same either way.
 */
export async function filterOptions(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
): Promise<AcquisitionFilterOptions> {
  const sets = Object.keys(OPTION_SETS) as SessionAggregate[];
  const parts = sessionParts(sets, range);
  const pairs = sets.map((set) => `arrayMap(v -> ('${set}', v), m_${set})`).join(', ');
  const rows = await clickhouse.rows(
    `SELECT option.1 AS name, option.2 AS value, uniqExact(user_id) AS users
       FROM (SELECT DISTINCT user_id, ${sets.map((set) => `m_${set}`).join(', ')} FROM (${parts.sql}))
      ARRAY JOIN arrayConcat(${pairs}) AS option
      WHERE trimBoth(option.2) != ''
      GROUP BY name, value
      ORDER BY name, users DESC, value
      LIMIT ${MAX_FILTER_OPTIONS} BY name`,
    { project: projectId, ...parts.params },
    OptionRow,
  );
  const result = Object.fromEntries(
    Object.values(OPTION_SETS).map((key) => [key, []]),
  ) as unknown as AcquisitionFilterOptions;
  for (const row of rows) {
    const key = OPTION_SETS[row.name];
    if (key) result[key].push({ value: row.value, users: row.users });
  }
  return result;
}
