import type { AcquisitionFilters } from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { fold } from '../../clickhouse/session-days.ts';
import { foldedSessionRows, READ_RANGE_IN_PARALLEL } from '../../clickhouse/session-rows.ts';
import { type FunnelCounts, FunnelRow, funnelCountsOf } from './question.ts';

/** Each step's figure of a row: a flag, or (`submitted_txs`) a set of transaction ids. */
const STEPS = ['has_wallet', 'has_connected', 'has_signed', 'submitted_txs'] as const;

/**
 * Distinct users per funnel step, over the events in the range (of matching sessions when filtered). A
 * user executed multiple transactions when their sessions' submitted transactions hold more than one id.
 * Every step is a maximum or a set over a user's sessions, so rows fold straight into one row per user
 * (ADR 036). Unfiltered, every row of the range counts. Filtered, a row counts when its session passes:
 * the range's rows are read once with the repeated keys' rows grouped per session (session-rows.ts,
 * `foldedSessionRows`), each kept when it passes, then every kept group folds into its user (ADR 043).
 * Definitions: docs/acquisition-and-incidents.md, "Funnel".
 */
export async function funnelCounts(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  filters: AcquisitionFilters,
): Promise<FunnelCounts> {
  const rows = foldedSessionRows(STEPS, filters, range);
  const folds = (from: string, to: string) =>
    STEPS.map((step) => `${fold(step, `${from}${step}`)} AS ${to}${step}`).join(',\n             ');
  const filtered = rows.passes !== '1';
  // Filtered: one row per user's single-row sessions that pass, and one per passing folded session.
  const source = filtered
    ? `${rows.repeatedSessions},
    session_groups AS (
      SELECT user_id, ${rows.foldedSession} AS folded_session,
             ${folds('m_', 'g_')}
        FROM ${rows.from}
       GROUP BY user_id, folded_session
      HAVING ${rows.passes}
    ),`
    : '';
  const [row] = await clickhouse.rows(
    `WITH ${source}
    per_user AS (
      SELECT user_id,
             ${folds(filtered ? 'g_' : 'm_', '')}
        FROM ${filtered ? 'session_groups' : rows.from}
       GROUP BY user_id
    )
    SELECT count() AS total_users,
           countIf(has_wallet) AS have_wallets,
           countIf(has_connected) AS have_connected,
           countIf(length(submitted_txs) > 0) AS have_tx,
           countIf(length(submitted_txs) > 1) AS have_multiple_tx,
           countIf(has_signed) AS signed
      FROM per_user
    ${READ_RANGE_IN_PARALLEL}`,
    { project: projectId, ...rows.params },
    FunnelRow,
  );
  return funnelCountsOf(row);
}
