import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter, withCtes } from '../../clickhouse/event-filter.ts';
import { FROM, historyFilterSql, rangeParams, STAGE_WINDOW, TO } from '../../clickhouse/sql.ts';
import { transactionFolds } from '../../clickhouse/transaction-days.ts';
import { SEARCHED_STAGES } from '../../clickhouse/transaction-keys.ts';
import { TX_STAGE_WINDOW_MS } from '../../domain.ts';
import { count } from '../../rows.ts';
import { type HistoryFilter, onlyAnalyticsFilters } from '../transaction-history/question.ts';

const KeptRow = z.object({ kept: count });

/**
 * The transactions requested in the range that the history's filter (and the Analytics filters) keep, from every stage in the window;
 * without FINAL, as the history's filtered page (a duplicate is an identical copy: no aggregate changes).
 */
export async function transactionCount(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  filter: HistoryFilter,
): Promise<number> {
  const kept = historyFilterSql(filter);
  const sessions = eventFilter(filter.sessions ?? undefined, range);
  const having = [kept.having, sessions.transactions].filter(Boolean).join(' AND ');
  if (onlyAnalyticsFilters(filter)) {
    // The Analytics filters alone: by request key in `transaction_days`, as the history's page (ADR 134).
    const folds = transactionFolds({
      fromMs: range.fromMs - TX_STAGE_WINDOW_MS,
      toMs: range.toMs + TX_STAGE_WINDOW_MS,
    });
    const [row] = await clickhouse.rows(
      `${withCtes(sessions.cte)}
     SELECT toFloat64(count()) AS kept
       FROM (${folds.sql}
             HAVING requested_at >= ${FROM} AND requested_at < ${TO} AND t_request_session ${sessions.inSessions})`,
      { ...rangeParams(projectId, range), ...sessions.params, ...folds.params },
      KeptRow,
    );
    return row?.kept ?? 0;
  }
  const rows = await clickhouse.rows(
    `${withCtes(sessions.cte)}
     SELECT toFloat64(count()) AS kept
       FROM (SELECT min(ts) AS requested_at
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
                    ${having ? `AND ${having}` : ''})`,
    { ...rangeParams(projectId, range), ...kept.params, ...sessions.params },
    KeptRow,
  );
  return rows[0]?.kept ?? 0;
}
