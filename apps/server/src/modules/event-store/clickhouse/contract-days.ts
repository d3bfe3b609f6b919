import { SUBMITTED_STAGES, sqlList } from '../domain.ts';
import { COPY_SPILL_BYTES } from './copy-spill.ts';

/**
 * `contract_days`: one row per (project, UTC day, contract transaction) with what the contract functions
 * read of that transaction's stages of that day
 * (docs/decisions/038-clickhouse-contract-days-and-incident-query-shapes.md): its first stage's time,
 * whether one was a submitted stage, and the chain (of its earliest stage with one), contract and
 * selector its stages carry. The same key as `transaction_days` (ADR 033), so every delete finds its rows
 * by the same transaction-days; an AggregatingMergeTree fed by a materialized view on `events`: a
 * minimum, a maximum, an argMin and an any state fold the same whatever the number of copies of a stage,
 * the loads it came in or their order. Only contract transactions (every stage of a transaction repeats
 * its kind), so a project's rows are a fraction of its transaction-days.
 */

/** The UTC day an event falls in. */
const EVENT_DAY = "toDate(ts, 'UTC')";

/**
 * The states over a contract transaction's stages, for the view, the partial days of a question and
 * rebuilds; the `SimpleState` ones give the table `SimpleAggregateFunction` columns (merged by min and max).
 */
export const CONTRACT_DAY_AGGREGATES = `minSimpleState(ts) AS first_stage_at,
         maxSimpleState(toUInt8(ifNull(tx_stage IN ${sqlList(SUBMITTED_STAGES)}, 0))) AS has_submitted,
         argMinState(chain_id, ts) AS chain_state,
         anyState(tx_to) AS contract_state,
         anyState(selector) AS selector_state`;

/** The contract transactions' stages among the rows of a table (`where`: more conditions on them). */
export const CONTRACT_STAGES = "type = 'tx' AND tx_id IS NOT NULL AND tx_kind = 'contract'";

/** The rows of `contract_days` for the events a SELECT reads (`where`: more conditions on them). */
export const contractDaysOfEvents = (where = '', table = 'events') =>
  `SELECT project_id, ${EVENT_DAY} AS day, assumeNotNull(tx_id) AS tx_id,
         ${CONTRACT_DAY_AGGREGATES}
    FROM ${table}
   WHERE ${CONTRACT_STAGES}${where ? ` AND ${where}` : ''}
   GROUP BY project_id, day, tx_id`;

/**
 * The table takes its column types from the SELECT that fills it (EMPTY AS SELECT, as `incident_lives`),
 * so the view's states and the columns cannot disagree; then the view, then the stored stages, sorted by
 * the key. A load while the schema migrates reaches the table through the view, the copy or both, which
 * folds to the same row.
 */
export const CONTRACT_DAYS_STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS contract_days
ENGINE = AggregatingMergeTree
ORDER BY (project_id, day, tx_id)
EMPTY AS ${contractDaysOfEvents()}`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS contract_days_of_events TO contract_days AS
${contractDaysOfEvents()}`,
  `INSERT INTO contract_days ${contractDaysOfEvents()}
   ORDER BY project_id, day, tx_id
SETTINGS max_bytes_before_external_group_by = ${COPY_SPILL_BYTES},
         max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];
