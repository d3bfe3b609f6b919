import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import type { LifecycleCounts } from '../../wallet-questions.ts';
import { countsOf, NO_POWER, POWER_CANDIDATE_SQL, powerThreshold, stageSql } from './question.ts';

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

/** The Power threshold of the as-of day (docs/wallets.md). */
export async function powerThresholdDuckDb(
  connection: Connection,
  projectId: string,
  asOfDay: string,
): Promise<number | null> {
  const rows = await rowsOf(
    connection,
    `WITH ${WALLET_FACTS_DUCKDB}
     SELECT n28, count(*) AS wallets FROM wallet_facts WHERE ${POWER_CANDIDATE_SQL} GROUP BY n28`,
    { project: projectId, asof: asOfDay },
  );
  return powerThreshold(new Map(rows.map((row) => [Number(row.n28), Number(row.wallets)])));
}

export async function lifecycleCounts(
  connection: Connection,
  projectId: string,
  asOfDay: string,
): Promise<LifecycleCounts> {
  const threshold = await powerThresholdDuckDb(connection, projectId, asOfDay);
  const rows = await rowsOf(
    connection,
    `WITH ${WALLET_FACTS_DUCKDB}
     SELECT ${stageSql('$power::BIGINT')} AS stage, count(*) AS wallets FROM wallet_facts GROUP BY stage`,
    { project: projectId, asof: asOfDay, power: BigInt(threshold ?? NO_POWER) },
  );
  return countsOf(
    rows.map((row) => ({ stage: String(row.stage), wallets: Number(row.wallets) })),
    threshold,
  );
}
