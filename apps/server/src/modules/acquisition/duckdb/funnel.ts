import type { DuckDBConnection } from '@duckdb/node-api';
import type { AcquisitionFilters, FunnelStepKey } from '@polyflow/contracts/acquisition';
import { IN_RANGE, rangeParams, rowsOf, SUBMITTED_STAGES } from '../../analytics/duckdb/sql.ts';
import type { TimeRange } from '../../analytics/time-range.ts';
import { inMatching, sessionFilter } from './sql.ts';

export type FunnelCounts = Record<FunnelStepKey, number>;

/**
 * Distinct users per funnel step, over the events in the range (of matching sessions when filtered).
 * One scan of the table: it reads only the columns below (plus the filters'), which is what a query costs
 * on a table in arrival order. Definitions: docs/acquisition-and-incidents.md, "Funnel".
 */
export async function funnelCounts(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
  filters: AcquisitionFilters,
): Promise<FunnelCounts> {
  const filter = sessionFilter(filters);
  const isFiltered = filter.columns.length > 0;
  const columns = ['user_id', 'type', 'wallet_provider', 'tx_id', 'tx_stage', 'sig_stage'];
  if (isFiltered) columns.push('session_id', ...filter.columns.filter((column) => !columns.includes(column)));
  const sql = `
    WITH scoped AS ${isFiltered ? 'MATERIALIZED' : ''} (
      SELECT ${columns.join(', ')} FROM events WHERE ${IN_RANGE}
    ),
    ${isFiltered ? `${filter.cte('scoped')},` : ''}
    per_user AS (
      SELECT user_id,
             bool_or(type IN ('wallet_detected', 'wallet_connected') OR wallet_provider IS NOT NULL) AS has_wallet,
             bool_or(type = 'wallet_connected') AS has_connected,
             count(DISTINCT tx_id) FILTER (WHERE type = 'tx' AND tx_stage IN ${SUBMITTED_STAGES}) AS transactions,
             bool_or(type = 'signature' AND sig_stage = 'signed') AS has_signed
        FROM scoped
       WHERE true ${inMatching(filter)}
       GROUP BY user_id
    )
    SELECT count(*)::DOUBLE AS total_users,
           count(*) FILTER (WHERE has_wallet)::DOUBLE AS have_wallets,
           count(*) FILTER (WHERE has_connected)::DOUBLE AS have_connected,
           count(*) FILTER (WHERE transactions >= 1)::DOUBLE AS have_tx,
           count(*) FILTER (WHERE transactions >= 2)::DOUBLE AS have_multiple_tx,
           count(*) FILTER (WHERE has_signed)::DOUBLE AS signed
      FROM per_user`;
  const [row = {}] = await rowsOf(connection, sql, { ...rangeParams(projectId, range), ...filter.params });
  const count = (name: string) => Number(row[name] ?? 0);
  return {
    totalUsers: count('total_users'),
    haveWallets: count('have_wallets'),
    haveConnectedWallet: count('have_connected'),
    haveExecutedTransaction: count('have_tx'),
    haveExecutedMultipleTransactions: count('have_multiple_tx'),
    signedData: count('signed'),
  };
}
