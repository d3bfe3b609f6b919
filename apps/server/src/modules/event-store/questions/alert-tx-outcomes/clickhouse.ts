import type { AlertWindow } from '../../alert-questions.ts';
import { IN_WINDOW_MS, windowsSql } from '../../clickhouse/alert-windows.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { LATEST_STAGE } from '../../clickhouse/sql.ts';
import { SUBMITTED_STAGES, sqlList, TX_STAGE_WINDOW_MS } from '../../domain.ts';
import { type AlertTxOutcome, AlertTxOutcomeRow, txOutcomeOf } from './question.ts';

/**
 * Every transaction of the windows' projects with a stage within one stage window of their span, folded
 * from its stages as `transactionsCte` (clickhouse/sql.ts) folds them, then counted in each window it
 * falls in. Without FINAL: a copy of a stage loaded twice changes none of the fold's aggregates (its
 * minimum, its latest stage, whether one was submitted), and the count is of transactions.
 */
export async function alertTxOutcomes(
  clickhouse: ClickHouse,
  windows: readonly AlertWindow[],
): Promise<AlertTxOutcome[]> {
  if (windows.length === 0) return [];
  const { ctes, params, projectIds, loMs, hiMs } = windowsSql(windows);
  const rows = await clickhouse.rows(
    `WITH ${ctes},
     transactions AS (
       SELECT project_id AS t_project, tx_id, toUnixTimestamp64Milli(min(ts)) AS requested_ms,
              ${LATEST_STAGE} AS t_status,
              max(tx_stage IN ${sqlList(SUBMITTED_STAGES)}) AS t_is_submitted
         FROM events
        WHERE project_id IN {projects:Array(String)} AND type = 'tx' AND tx_id IS NOT NULL
          AND ts >= fromUnixTimestamp64Milli(toInt64(${loMs - TX_STAGE_WINDOW_MS}), 'UTC')
          AND ts < fromUnixTimestamp64Milli(toInt64(${hiMs + TX_STAGE_WINDOW_MS}), 'UTC')
        GROUP BY project_id, tx_id
     )
     SELECT w.w AS window_index, toInt64(floor((t.requested_ms - w.from_ms) / w.bucket_ms)) AS bucket,
            count() AS total,
            countIf(t.t_is_submitted) AS submitted,
            countIf(t.t_status IN ('reverted', 'failed')) AS failed,
            countIf(t.t_is_submitted OR t.t_status = 'failed') AS attempted
       FROM transactions AS t INNER JOIN windows AS w ON w.project_id = t.t_project
      WHERE ${IN_WINDOW_MS('w', 't.requested_ms')}
      GROUP BY window_index, bucket`,
    { ...params, projects: projectIds },
    AlertTxOutcomeRow,
  );
  return rows.map(txOutcomeOf);
}
