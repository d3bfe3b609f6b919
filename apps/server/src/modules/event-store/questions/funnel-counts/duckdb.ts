import type { AcquisitionFilters } from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { sessionFilter, withSessionRows } from '../../duckdb/session-rows.ts';
import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import { type FunnelCounts, FunnelRow, funnelCountsOf } from './question.ts';

const COLUMNS = ['has_wallet', 'has_connected', 'has_signed', 'first_submitted_tx', 'last_submitted_tx'];

/**
 * Distinct users per funnel step, over the events in the range (of matching sessions when filtered),
 * read from the per-session rows rather than the events. A user executed multiple transactions when
 * their submitted transactions do not all share one id: the smallest and the largest id differ.
 * Definitions: docs/acquisition-and-incidents.md, "Funnel".
 */
export async function funnelCounts(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  filters: AcquisitionFilters,
): Promise<FunnelCounts> {
  const filter = sessionFilter(filters);
  const sql = (sessionRows: string) => `
    WITH ${sessionRows},
    per_user AS (
      SELECT user_id,
             bool_or(has_wallet) AS has_wallet,
             bool_or(has_connected) AS has_connected,
             min(first_submitted_tx) AS first_tx,
             max(last_submitted_tx) AS last_tx,
             bool_or(has_signed) AS has_signed
        FROM session_rows
       WHERE ${filter.condition}
       GROUP BY user_id
    )
    SELECT count(*)::DOUBLE AS total_users,
           count(*) FILTER (WHERE has_wallet)::DOUBLE AS have_wallets,
           count(*) FILTER (WHERE has_connected)::DOUBLE AS have_connected,
           count(first_tx)::DOUBLE AS have_tx,
           count(*) FILTER (WHERE first_tx <> last_tx)::DOUBLE AS have_multiple_tx,
           count(*) FILTER (WHERE has_signed)::DOUBLE AS signed
      FROM per_user`;
  const [row] = await withSessionRows(
    connection,
    projectId,
    range,
    [...COLUMNS, ...filter.columns],
    (sessionRows, params) => rowsOf(connection, sql(sessionRows), { ...params, ...filter.params }, FunnelRow),
  );
  return funnelCountsOf(row);
}
