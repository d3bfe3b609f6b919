/**
 * The PostgreSQL translations of the analytics SQL fragments (src/modules/event-store/duckdb/sql.ts).
 * Parameters: $1 project, $2 from (epoch ms), $3 to (epoch ms), $4 bucket (ms) or a limit.
 */
import { STAGE_RANK, SUBMITTED_STAGES, sqlList } from '../../src/modules/event-store/domain.ts';

export const FROM = `(to_timestamp($2::bigint / 1000.0) AT TIME ZONE 'UTC')`;
export const TO = `(to_timestamp($3::bigint / 1000.0) AT TIME ZONE 'UTC')`;
export const IN_RANGE = `project_id = $1 AND ts >= ${FROM} AND ts < ${TO}`;
export const epochMs = (expression: string) => `(extract(epoch FROM ${expression}) * 1000)`;
export const bucketOf = (expression: string) =>
  `floor((${epochMs(expression)} - $2::bigint) / $4::bigint)::bigint`;

export const TRANSACTIONS_CTE = `transactions AS (
  SELECT tx_id,
         min(ts) AS requested_at,
         (array_agg(tx_stage ORDER BY ts DESC, ${STAGE_RANK} DESC, id COLLATE "C" DESC))[1] AS status,
         bool_or(tx_stage IN ${sqlList(SUBMITTED_STAGES)}) AS is_submitted,
         max(tx_kind) AS kind,
         max(tx_hash) AS hash,
         (array_agg(coalesce(tx_from, wallet_address) ORDER BY ts))[1] AS wallet,
         (array_agg(chain_id ORDER BY ts))[1] AS chain_id,
         max(tx_to) AS contract,
         max(selector) AS selector,
         (array_agg(country ORDER BY ts))[1] AS country,
         (array_agg(browser ORDER BY ts))[1] AS browser
    FROM events
   WHERE project_id = $1 AND type = 'tx'
     AND ts >= ${FROM} - interval '1 day' AND ts < ${TO} + interval '1 day'
   GROUP BY tx_id
  HAVING min(ts) >= ${FROM} AND min(ts) < ${TO}
)`;
