import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { type Connection, historyFilterSql, rangeParams, rowsOf, transactionsCte } from '../../duckdb/sql.ts';
import { count } from '../../rows.ts';
import type { HistoryFilter } from '../transaction-history/question.ts';

/** The transactions requested in the range that the history's filter keeps. */
export async function transactionCount(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  filter: HistoryFilter,
): Promise<number> {
  const kept = historyFilterSql(filter);
  const rows = await rowsOf(
    connection,
    `WITH ${transactionsCte([], false, kept.where, kept.having)}
     SELECT count(*)::DOUBLE AS kept FROM transactions`,
    { ...rangeParams(projectId, range), ...kept.params },
    z.object({ kept: count }),
  );
  return rows[0]?.kept ?? 0;
}
