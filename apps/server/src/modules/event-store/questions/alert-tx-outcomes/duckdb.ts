import type { AlertWindow } from '../../alert-questions.ts';
import { SUBMITTED_STAGES, sqlList, TX_STAGE_WINDOW_MS } from '../../domain.ts';
import { IN_WINDOW, windowBucketOf, windowsSql } from '../../duckdb/alert-windows.ts';
import { type Connection, LATEST_STAGE, rowsOf } from '../../duckdb/sql.ts';
import { type AlertTxOutcome, AlertTxOutcomeRow, txOutcomeOf } from './question.ts';

/**
 * Every transaction of the windows' projects with a stage within one stage window of their span, folded
 * from its stages as `transactionsCte` (duckdb/sql.ts) folds them, then counted in each window it falls in.
 */
export async function alertTxOutcomes(
  connection: Connection,
  windows: readonly AlertWindow[],
): Promise<AlertTxOutcome[]> {
  if (windows.length === 0) return [];
  const { ctes, params, loMs, hiMs } = windowsSql(windows);
  const rows = await rowsOf(
    connection,
    `WITH ${ctes},
     transactions AS (
       SELECT project_id, tx_id, min(ts) AS requested_at,
              ${LATEST_STAGE} AS status,
              bool_or(tx_stage IN ${sqlList(SUBMITTED_STAGES)}) AS is_submitted
         FROM events
        WHERE project_id IN (SELECT project_id FROM alert_projects) AND type = 'tx'
          AND ts >= make_timestamp(${(loMs - TX_STAGE_WINDOW_MS) * 1000})
          AND ts < make_timestamp(${(hiMs + TX_STAGE_WINDOW_MS) * 1000})
        GROUP BY project_id, tx_id
     )
     SELECT w.w AS window_index, ${windowBucketOf('w', 't.requested_at')} AS bucket,
            count(*)::DOUBLE AS total,
            count(*) FILTER (WHERE is_submitted)::DOUBLE AS submitted,
            count(*) FILTER (WHERE status IN ('reverted', 'failed'))::DOUBLE AS failed,
            count(*) FILTER (WHERE is_submitted OR status = 'failed')::DOUBLE AS attempted
       FROM transactions t JOIN windows w ON w.project_id = t.project_id
      WHERE ${IN_WINDOW('w', 't.requested_at')}
      GROUP BY window_index, bucket`,
    params,
    AlertTxOutcomeRow,
  );
  return rows.map(txOutcomeOf);
}
