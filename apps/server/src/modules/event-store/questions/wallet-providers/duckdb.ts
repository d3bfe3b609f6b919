import type { DuckDBConnection } from '@duckdb/node-api';
import type { Share } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { IN_RANGE, rangeParams, rowsOf, textOrNull } from '../../duckdb/sql.ts';

/** Distinct wallets connected in the range per wallet provider (EIP-6963 name), most used first. */
export async function walletProviders(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
): Promise<Share[]> {
  const rows = await rowsOf(
    connection,
    `SELECT wallet_provider AS key, count(DISTINCT wallet_address)::DOUBLE AS value
       FROM events
      WHERE ${IN_RANGE} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
      GROUP BY wallet_provider
      ORDER BY value DESC, key NULLS LAST`,
    rangeParams(projectId, range),
  );
  return rows.map((row) => ({ key: textOrNull(row.key), value: Number(row.value) }));
}
