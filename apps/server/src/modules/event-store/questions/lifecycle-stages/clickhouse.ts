import { z } from 'zod';
import type { ClickHouse } from '../../clickhouse/client.ts';
import type { LifecycleCounts } from '../../wallet-questions.ts';
import { countsOf, NO_POWER, POWER_CANDIDATE_SQL, powerThreshold, stageSql } from './question.ts';

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

const HistogramRow = z.object({ n28: z.coerce.number(), wallets: z.coerce.number() });
const StageRow = z.object({ stage: z.string(), wallets: z.coerce.number() });

export async function powerThresholdClickHouse(
  clickhouse: ClickHouse,
  projectId: string,
  asOfDay: string,
): Promise<number | null> {
  const rows = await clickhouse.rows(
    `WITH ${WALLET_FACTS_CLICKHOUSE}
     SELECT n28, count() AS wallets FROM wallet_facts WHERE ${POWER_CANDIDATE_SQL} GROUP BY n28`,
    { project: projectId, asof: asOfDay },
    HistogramRow,
  );
  return powerThreshold(new Map(rows.map((row) => [row.n28, row.wallets])));
}

export async function lifecycleCounts(
  clickhouse: ClickHouse,
  projectId: string,
  asOfDay: string,
): Promise<LifecycleCounts> {
  const threshold = await powerThresholdClickHouse(clickhouse, projectId, asOfDay);
  const rows = await clickhouse.rows(
    `WITH ${WALLET_FACTS_CLICKHOUSE}
     SELECT ${stageSql('{power:Int64}')} AS stage, count() AS wallets FROM wallet_facts GROUP BY stage`,
    { project: projectId, asof: asOfDay, power: threshold ?? NO_POWER },
    StageRow,
  );
  return countsOf(rows, threshold);
}
