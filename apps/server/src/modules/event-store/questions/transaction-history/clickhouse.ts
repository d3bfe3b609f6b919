import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { dayParts } from '../../clickhouse/day-parts.ts';
import { eventFilter, withCtes } from '../../clickhouse/event-filter.ts';
import {
  EVENTS,
  FROM,
  historyFilterSql,
  LATEST_STAGE,
  ms,
  rangeParams,
  STAGE_WINDOW,
  TO,
} from '../../clickhouse/sql.ts';
import { transactionFolds } from '../../clickhouse/transaction-days.ts';
import { SEARCHED_STAGES } from '../../clickhouse/transaction-keys.ts';
import { TX_STAGE_WINDOW_MS } from '../../domain.ts';
import {
  type HistoryFilter,
  type HistoryPage,
  HistoryRow,
  historyRowOf,
  isFiltered,
  NO_FILTER,
  onlyAnalyticsFilters,
  type TransactionHistoryRow,
} from './question.ts';

const AFTER = "fromUnixTimestamp64Milli({after_ms:Nullable(Int64)}, 'UTC')";

/**
 * One page of the transactions requested in the range, newest first, strictly after `cursor`. Two steps
 * (docs/decisions/037): the page's transactions by their first stage within the stage window, from
 * `transaction_days` for the window's whole UTC days and the stages among `events` for its partial days
 * (as the transaction outcomes, ADR 033); then the full fields of only those, read from `events` at the
 * times `transaction_keys` holds for their stages, which the table's key (project, time) finds directly.
 * A filtered page is found among the aggregates of every stage in the window instead (the derived tables
 * hold no status, hash, wallet or session), read without FINAL: a duplicate awaiting merge is an identical copy (a
 * file loaded twice), which changes no min, max, any or arg of the transaction.
 */
export async function transactionHistory(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  page: HistoryPage,
  filter: HistoryFilter = NO_FILTER,
): Promise<TransactionHistoryRow[]> {
  const window = { fromMs: range.fromMs - TX_STAGE_WINDOW_MS, toMs: range.toMs + TX_STAGE_WINDOW_MS };
  const parts = dayParts(window, 'stages_');
  const kept = historyFilterSql(filter);
  // The Analytics filters: the transactions whose request's session passes them (ADR 074).
  const sessions = eventFilter(filter.sessions ?? undefined, range);
  const having = [kept.having, sessions.transactions].filter(Boolean).join(' AND ');
  const afterCursor = `({after_ms:Nullable(Int64)} IS NULL
               OR requested_at < ${AFTER}
               OR (requested_at = ${AFTER} AND tx_id < {after_id:Nullable(String)}))`;
  let pageSql: string;
  let foldParams: Params = {};
  if (onlyAnalyticsFilters(filter)) {
    // The Analytics filters alone: the transactions requested in a passing session, by their request key
    // in `transaction_days` (transactionFolds, ADR 111) instead of every stage of the window (ADR 134).
    const folds = transactionFolds(window);
    foldParams = folds.params;
    pageSql = `SELECT tx_id, requested_at FROM (
       ${folds.sql}
       HAVING requested_at >= ${FROM} AND requested_at < ${TO} AND t_request_session ${sessions.inSessions}
          AND ${afterCursor})`;
  } else if (isFiltered(filter)) {
    pageSql = `SELECT assumeNotNull(tx_id) AS tx_id, min(ts) AS requested_at
         FROM events
        WHERE project_id = {project:String} AND type = 'tx' AND tx_id IS NOT NULL AND ${STAGE_WINDOW}
              ${kept.where ? `AND ${kept.where}` : ''}${
                filter.search
                  ? `
              AND (ts, assumeNotNull(tx_id)) IN (${SEARCHED_STAGES})`
                  : ''
              }
        GROUP BY tx_id
       HAVING requested_at >= ${FROM} AND requested_at < ${TO}
          ${having ? `AND ${having}` : ''}
          AND ${afterCursor}`;
  } else {
    const firstStages: string[] = [];
    if (parts.wholeDays)
      firstStages.push(`SELECT tx_id, first_stage_at
          FROM transaction_days
         WHERE project_id = {project:String} AND ${parts.wholeDays}`);
    if (parts.partialDays)
      firstStages.push(`SELECT assumeNotNull(tx_id) AS tx_id, ts AS first_stage_at
          FROM events
         WHERE project_id = {project:String} AND type = 'tx' AND tx_id IS NOT NULL AND ${parts.partialDays}`);
    pageSql = `SELECT tx_id, min(first_stage_at) AS requested_at
         FROM (${firstStages.join('\n        UNION ALL\n        ')})
        GROUP BY tx_id
       HAVING requested_at >= ${FROM} AND requested_at < ${TO}
          AND ${afterCursor}`;
  }
  const rows = await clickhouse.rows(
    `${withCtes(
      sessions.cte,
      `page AS (
       ${pageSql}
        ORDER BY requested_at DESC, tx_id DESC
        LIMIT {limit:UInt32}
     )`,
    )}
     SELECT assumeNotNull(tx_id) AS transaction_id, ${ms('min(ts)')} AS time_ms,
            max(tx_hash) AS t_hash, argMin(coalesce(tx_from, wallet_address), ts) AS t_wallet,
            any(tx_kind) AS t_kind, ${LATEST_STAGE} AS t_status, argMin(chain_id, ts) AS t_chain_id,
            argMin(country, ts) AS t_country, argMin(browser, ts) AS t_browser
       FROM ${EVENTS}
      WHERE project_id = {project:String} AND type = 'tx' AND ${STAGE_WINDOW}
        AND (ts, assumeNotNull(tx_id)) IN (
              SELECT ts, tx_id FROM transaction_keys
               WHERE project_id = {project:String} AND key IN (SELECT tx_id FROM page))
      GROUP BY tx_id
      ORDER BY time_ms DESC, transaction_id DESC`,
    {
      ...rangeParams(projectId, range),
      ...parts.params,
      ...kept.params,
      ...sessions.params,
      ...foldParams,
      after_ms: page.after ? page.after.timeMs : null,
      after_id: page.after?.id ?? null,
      limit: page.limit,
    },
    HistoryRow,
  );
  return rows.map(historyRowOf);
}
