import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter, FILTERED_WALLETS_CTE, withCtes } from '../../clickhouse/event-filter.ts';
import { rangeParams } from '../../clickhouse/sql.ts';
import type { LifecycleCounts, SessionMatch } from '../../wallet-questions.ts';
import { countsOfGroups, GROUP_SQL, GroupRow } from './question.ts';

const DAYS_BACK = "dateDiff('day', day, toDate({asof:String}))";

/**
 * Per wallet of the project with an active day up to {asof}: the facts of question.ts, from `wallet_days`
 * (an AggregatingMergeTree read without FINAL: a day's row may be there twice, so days count distinct).
 */
export const WALLET_FACTS_CLICKHOUSE = `wallet_facts AS (
  SELECT wallet,
         dateDiff('day', min(day), toDate({asof:String})) AS age,
         uniqExactIf(day, ${DAYS_BACK} < 28) AS n28,
         uniqExactIf(day, ${DAYS_BACK} < 14) AS n14,
         uniqExactIf(day, ${DAYS_BACK} BETWEEN 28 AND 55) AS n_before
    FROM wallet_days
   WHERE project_id = {project:String} AND day <= toDate({asof:String})
   GROUP BY wallet
)`;

/** The counts and the Power threshold of the as-of day, in one read of `wallet_days` (question.ts). */
export async function lifecycleCounts(
  clickhouse: ClickHouse,
  projectId: string,
  asOfDay: string,
  matching?: SessionMatch,
): Promise<LifecycleCounts> {
  const filter = eventFilter(matching?.filters);
  if (matching && filter.cte) {
    // The wallets a passing session carried in the range, marked among all (ADR 074, docs/wallets.md).
    const rows = await clickhouse.rows(
      `${withCtes(filter.cte, FILTERED_WALLETS_CTE, WALLET_FACTS_CLICKHOUSE)},
       grouped AS (
         SELECT ${GROUP_SQL} AS g_stage, n28 AS g_n28,
                toUInt8(wallet IN (SELECT wallet FROM filtered_wallets)) AS g_matched
           FROM wallet_facts
       )
       SELECT g_stage AS stage, if(g_stage = 'recent', g_n28, 0) AS n28, g_matched AS matched, count() AS wallets
         FROM grouped GROUP BY stage, n28, matched`,
      { ...rangeParams(projectId, matching.range), asof: asOfDay, ...filter.params },
      GroupRow,
    );
    return countsOfGroups(rows);
  }
  const rows = await clickhouse.rows(
    `WITH ${WALLET_FACTS_CLICKHOUSE}, grouped AS (SELECT ${GROUP_SQL} AS g_stage, n28 AS g_n28 FROM wallet_facts)
     SELECT g_stage AS stage, if(g_stage = 'recent', g_n28, 0) AS n28, count() AS wallets
       FROM grouped GROUP BY stage, n28`,
    { project: projectId, asof: asOfDay },
    GroupRow,
  );
  return countsOfGroups(rows);
}
