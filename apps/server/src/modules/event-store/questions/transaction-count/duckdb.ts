import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import { type Connection, historyFilterSql, rangeParams, rowsOf, transactionsCte } from '../../duckdb/sql.ts';
import { count } from '../../rows.ts';
import type { HistoryFilter } from '../transaction-history/question.ts';

/** The transactions requested in the range that the history's filter (and the Analytics filters) keep. */
export async function transactionCount(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  filter: HistoryFilter,
): Promise<number> {
  const kept = historyFilterSql(filter);
  const sessions = await eventFilter(connection, projectId, range, filter.sessions ?? undefined);
  const having = [kept.having, sessions.transactions].filter(Boolean).join(' AND ');
  const rows = await rowsOf(
    connection,
    `${withCtes(sessions.cte, transactionsCte([], false, [kept.where, sessions.requests].filter(Boolean).join(' AND '), having))}
     SELECT count(*)::DOUBLE AS kept FROM transactions`,
    { ...rangeParams(projectId, range), ...kept.params, ...sessions.params },
    z.object({ kept: count }),
  );
  return rows[0]?.kept ?? 0;
}
