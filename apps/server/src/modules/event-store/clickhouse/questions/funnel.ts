import type { AcquisitionFilters } from '@polyflow/contracts/acquisition';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { FunnelCounts } from '../../acquisition-questions.ts';
import type { ClickHouse } from '../client.ts';
import { count } from '../question-sql.ts';
import { fold } from '../session-days.ts';
import { matchingSessionParts } from '../session-rows.ts';

const FunnelRow = z.object({
  total_users: count,
  have_wallets: count,
  have_connected: count,
  have_tx: count,
  have_multiple_tx: count,
  signed: count,
});

/**
 * Distinct users per funnel step, over the events in the range (of matching sessions when filtered). A
 * user executed multiple transactions when their sessions' submitted transactions hold more than one id.
 * Every step is a maximum or a set over a user's sessions, so the rows of the matching sessions fold
 * straight into one row per user: no fold per session first (ADR 036).
 * Definitions: docs/acquisition-and-incidents.md, "Funnel".
 */
export async function funnelCounts(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  filters: AcquisitionFilters,
): Promise<FunnelCounts> {
  const parts = matchingSessionParts(
    ['has_wallet', 'has_connected', 'has_signed', 'submitted_txs'],
    filters,
    range,
  );
  const [row] = await clickhouse.rows(
    `WITH per_user AS (
      SELECT user_id,
             ${fold('has_wallet', 'm_has_wallet')} AS has_wallet,
             ${fold('has_connected', 'm_has_connected')} AS has_connected,
             length(${fold('submitted_txs', 'm_submitted_txs')}) AS submitted,
             ${fold('has_signed', 'm_has_signed')} AS has_signed
        FROM (${parts.sql})
       GROUP BY user_id
    )
    SELECT count() AS total_users,
           countIf(has_wallet) AS have_wallets,
           countIf(has_connected) AS have_connected,
           countIf(submitted > 0) AS have_tx,
           countIf(submitted > 1) AS have_multiple_tx,
           countIf(has_signed) AS signed
      FROM per_user`,
    { project: projectId, ...parts.params },
    FunnelRow,
  );
  return {
    totalUsers: row?.total_users ?? 0,
    haveWallets: row?.have_wallets ?? 0,
    haveConnectedWallet: row?.have_connected ?? 0,
    haveExecutedTransaction: row?.have_tx ?? 0,
    haveExecutedMultipleTransactions: row?.have_multiple_tx ?? 0,
    signedData: row?.signed ?? 0,
  };
}
