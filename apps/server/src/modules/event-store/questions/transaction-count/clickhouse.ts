import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter, withCtes } from '../../clickhouse/event-filter.ts';
import { FROM, historyFilterSql, rangeParams, STAGE_WINDOW, TO } from '../../clickhouse/sql.ts';
import { SEARCHED_STAGES } from '../../clickhouse/transaction-keys.ts';
import { count } from '../../rows.ts';
import type { HistoryFilter } from '../transaction-history/question.ts';

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
    z.object({ kept: count }),
  );
  return rows[0]?.kept ?? 0;
}
