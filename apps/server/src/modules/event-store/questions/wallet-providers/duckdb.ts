import type { Share } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { type Connection, IN_RANGE, rangeParams, rowsOf } from '../../duckdb/sql.ts';
import { ShareRow, shareOf } from './question.ts';

/** Distinct wallets connected in the range per wallet provider (EIP-6963 name), most used first. */
export async function walletProviders(
  connection: Connection,
  projectId: string,
  range: TimeRange,
): Promise<Share[]> {
  const rows = await rowsOf(
    connection,
    `SELECT wallet_provider AS share_key, count(DISTINCT wallet_address)::DOUBLE AS share_value
       FROM events
      WHERE ${IN_RANGE} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
      GROUP BY wallet_provider
      ORDER BY share_value DESC, share_key NULLS LAST`,
    rangeParams(projectId, range),
    ShareRow,
  );
  return rows.map(shareOf);
}
