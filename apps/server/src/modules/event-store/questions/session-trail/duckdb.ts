import type { DuckDBConnection } from '@duckdb/node-api';
import { TRAIL_LENGTH, TRAIL_LOOKBACK_MS } from '../../domain.ts';
import { numberOrNull, rowsOf, textOrNull } from '../../duckdb/sql.ts';
import type { StoredOccurrence, StoredTrailEvent } from '../../incident-questions.ts';

/**
 * Up to 20 events of the occurrence's session logged before it (or in the same millisecond) within the
 * 24 hours before it, oldest first.
 */
export async function sessionTrail(
  connection: DuckDBConnection,
  projectId: string,
  occurrence: Pick<StoredOccurrence, 'eventId' | 'timeMs' | 'sessionId' | 'userId'>,
): Promise<StoredTrailEvent[]> {
  const rows = await rowsOf(
    connection,
    `SELECT epoch_ms(ts)::DOUBLE AS time, type, path, title, wallet_address, wallet_provider,
            chain_id::DOUBLE AS chain_id, tx_stage, tx_kind, tx_hash, tx_to, selector, sig_stage, sig_method,
            error_source, error_message, error_code::DOUBLE AS error_code, rpc_method
       FROM events
      WHERE project_id = $project AND session_id = $session AND user_id = $user
        AND ts <= make_timestamp($at::BIGINT * 1000) AND id <> $event
        AND ts >= make_timestamp(($at::BIGINT - $lookback::BIGINT) * 1000)
      ORDER BY ts DESC, id DESC
      LIMIT ${TRAIL_LENGTH}`,
    {
      project: projectId,
      session: occurrence.sessionId,
      user: occurrence.userId,
      at: BigInt(occurrence.timeMs),
      event: occurrence.eventId,
      lookback: BigInt(TRAIL_LOOKBACK_MS),
    },
  );
  return rows.reverse().map((row) => ({
    timeMs: Number(row.time),
    type: String(row.type),
    path: textOrNull(row.path),
    title: textOrNull(row.title),
    walletAddress: textOrNull(row.wallet_address),
    walletProvider: textOrNull(row.wallet_provider),
    chainId: numberOrNull(row.chain_id),
    txStage: textOrNull(row.tx_stage),
    txKind: textOrNull(row.tx_kind),
    txHash: textOrNull(row.tx_hash),
    txTo: textOrNull(row.tx_to),
    selector: textOrNull(row.selector),
    sigStage: textOrNull(row.sig_stage),
    sigMethod: textOrNull(row.sig_method),
    errorSource: textOrNull(row.error_source),
    errorMessage: textOrNull(row.error_message),
    errorCode: numberOrNull(row.error_code),
    rpcMethod: textOrNull(row.rpc_method),
  }));
}
