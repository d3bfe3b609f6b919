import { eventFilter, FILTERED_WALLETS_CTE, withCtes } from '../../duckdb/event-filter.ts';
import { type Connection, rangeParams, rowsOf } from '../../duckdb/sql.ts';
import type { LifecycleCounts, SessionMatch } from '../../wallet-questions.ts';
import { countsOfGroups, GROUP_SQL, GroupRow } from './question.ts';

/** Per wallet of the project with an active day up to $asof: the facts of question.ts, from `wallet_days`. */
export const WALLET_FACTS_DUCKDB = `wallet_facts AS (
  SELECT wallet_address AS wallet,
         date_diff('day', min(day), $asof::DATE) AS age,
         count(*) FILTER (WHERE date_diff('day', day, $asof::DATE) < 28) AS n28,
         count(*) FILTER (WHERE date_diff('day', day, $asof::DATE) < 14) AS n14,
         count(*) FILTER (WHERE date_diff('day', day, $asof::DATE) BETWEEN 28 AND 55) AS n_before
    FROM wallet_days
   WHERE project_id = $project AND day <= $asof::DATE
   GROUP BY wallet_address
)`;

/** The counts and the Power threshold of the as-of day, in one read of `wallet_days` (question.ts). */
export async function lifecycleCounts(
  connection: Connection,
  projectId: string,
  asOfDay: string,
  matching?: SessionMatch,
): Promise<LifecycleCounts> {
  const filter = eventFilter(matching?.filters);
  if (matching && filter.cte) {
    // The wallets a passing session carried in the range, marked among all (ADR 074, docs/wallets.md).
    const rows = await rowsOf(
      connection,
      `${withCtes(filter.cte, FILTERED_WALLETS_CTE, WALLET_FACTS_DUCKDB)},
       grouped AS (
         SELECT ${GROUP_SQL} AS stage, n28,
                (wallet IN (SELECT wallet FROM filtered_wallets))::INTEGER AS matched
           FROM wallet_facts
       )
       SELECT stage, CASE WHEN stage = 'recent' THEN n28 ELSE 0 END AS n28, matched, count(*) AS wallets
         FROM grouped GROUP BY ALL`,
      { ...rangeParams(projectId, matching.range), asof: asOfDay, ...filter.params },
      GroupRow,
    );
    return countsOfGroups(rows);
  }
  const rows = await rowsOf(
    connection,
    `WITH ${WALLET_FACTS_DUCKDB}, grouped AS (SELECT ${GROUP_SQL} AS stage, n28 FROM wallet_facts)
     SELECT stage, CASE WHEN stage = 'recent' THEN n28 ELSE 0 END AS n28, count(*) AS wallets
       FROM grouped GROUP BY ALL`,
    { project: projectId, asof: asOfDay },
    GroupRow,
  );
  return countsOfGroups(rows);
}
