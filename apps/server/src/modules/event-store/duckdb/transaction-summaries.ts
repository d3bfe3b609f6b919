import { SUBMITTED_STAGES, sqlList } from '../domain.ts';
import type { DerivedTable } from './derived-table.ts';
import { STAGE_KEY } from './sql.ts';

/** `transaction_summaries`: one row per transaction, its request, last stage and outcome (ADR 025). */
export const TRANSACTION_SUMMARIES: DerivedTable = {
  name: 'transaction_summaries',
  definedIn: 4,
  order: 'project_id, requested_at',
  // The latest stage by STAGE_KEY; two stages of the same key (two outcomes in one millisecond) are
  // ordered by name, so that every order of loading gives the same row.
  rows: `SELECT project_id, tx_id, min(ts) AS requested_at, max(ts) AS last_ts,
       max(${STAGE_KEY}) AS status_key, arg_max(tx_stage, (${STAGE_KEY}, tx_stage)) AS status,
       bool_or(tx_stage IN ${sqlList(SUBMITTED_STAGES)}) AS is_submitted
  FROM {source} WHERE type = 'tx' AND tx_id IS NOT NULL
 GROUP BY project_id, tx_id`,
  onConflict: [
    `ON CONFLICT (project_id, tx_id) DO UPDATE SET
  requested_at = least(requested_at, excluded.requested_at),
  last_ts = greatest(last_ts, excluded.last_ts),
  status = CASE WHEN (excluded.status_key, excluded.status) > (status_key, status) THEN excluded.status
    ELSE status END,
  status_key = greatest(status_key, excluded.status_key),
  is_submitted = is_submitted OR excluded.is_submitted
  WHERE excluded.requested_at < requested_at OR excluded.last_ts > last_ts
     OR (excluded.status_key, excluded.status) > (status_key, status)
     OR (excluded.is_submitted AND NOT is_submitted)`,
  ],
};
