import { type Connection, RECEIPT_HAS_FEE as HAS_FEE, rowsOf, STAGE_KEY } from '../../duckdb/sql.ts';
import type { WalletProfile } from '../../wallet-questions.ts';
import { CARRIES_WALLET, DayRow, FactsRow, GasRow, profileOf, TouchRow } from './question.ts';

/** CASE, not FILTER alone: DuckDB would multiply an unbounded pair before filtering it out. */
const FEE = `CASE WHEN ${HAS_FEE} THEN gas_used * effective_gas_price END`;

const CARRIES = CARRIES_WALLET.replaceAll('{wallet}', '$wallet');

/** The wallet's transactions: latest stage, chain, and each kind's latest receipt fee. */
const TRANSACTIONS = `wallet_txs AS (
  SELECT tx_id FROM events
   WHERE project_id = $project AND type = 'tx' AND tx_id IS NOT NULL AND ${CARRIES}
   GROUP BY tx_id
  HAVING arg_min(coalesce(tx_from, wallet_address), ts) = $wallet
),
txs AS (
  SELECT tx_id, arg_max(tx_stage, ${STAGE_KEY}) AS status, arg_min(chain_id, ts) AS chain_id,
         arg_max(${FEE}, ts) FILTER (WHERE tx_stage = 'confirmed' AND ${HAS_FEE}) AS paid_confirmed,
         arg_max(${FEE}, ts) FILTER (WHERE tx_stage = 'reverted' AND ${HAS_FEE}) AS paid_reverted
    FROM events
   WHERE project_id = $project AND type = 'tx' AND tx_id IN (SELECT tx_id FROM wallet_txs)
   GROUP BY tx_id
)`;

export async function walletProfile(
  connection: Connection,
  projectId: string,
  wallet: string,
): Promise<WalletProfile | null> {
  const params = { project: projectId, wallet };
  const [facts] = await rowsOf(
    connection,
    `SELECT count(*) AS events, epoch_ms(min(ts)) AS first_ms, epoch_ms(max(ts)) AS last_ms,
            epoch_ms(min(ts) FILTER (WHERE type = 'wallet_connected' AND wallet_address = $wallet)) AS connected_ms,
            coalesce(arg_min(session_id, (ts, id)), '') AS first_session,
            coalesce(list(DISTINCT country), []) AS countries, coalesce(list(DISTINCT browser), []) AS browsers,
            coalesce(list(DISTINCT wallet_provider), []) AS providers,
            coalesce(list(DISTINCT chain_id), []) AS chains,
            count(DISTINCT session_id) AS sessions
       FROM events WHERE project_id = $project AND ${CARRIES}`,
    params,
    FactsRow,
  );
  if (!facts || facts.events === 0) return null;
  const [touch] = await rowsOf(
    connection,
    `SELECT arg_min(utm_source, (ts, id)) AS source, arg_min(utm_medium, (ts, id)) AS medium,
            arg_min(utm_campaign, (ts, id)) AS campaign,
            arg_min(referrer, (ts, id)) FILTER (WHERE type = 'page_view') AS referrer,
            arg_min(path, (ts, id)) FILTER (WHERE type = 'page_view') AS landing_path
       FROM events WHERE project_id = $project AND session_id = $session`,
    { project: projectId, session: facts.first_session },
    TouchRow,
  );
  const gas = await rowsOf(
    connection,
    `WITH ${TRANSACTIONS}
     SELECT chain_id AS chain, (coalesce(sum(paid_confirmed), 0) + coalesce(sum(paid_reverted), 0))::VARCHAR AS paid,
            coalesce(sum(paid_reverted), 0)::VARCHAR AS burned,
            count(*) FILTER (WHERE status = 'reverted') AS reverted,
            count(*) FILTER (WHERE status = 'failed') AS failed, count(*) AS transactions
       FROM txs GROUP BY chain_id`,
    params,
    GasRow,
  );
  const days = await rowsOf(
    connection,
    `SELECT strftime(day, '%Y-%m-%d') AS day FROM wallet_days
      WHERE project_id = $project AND wallet_address = $wallet ORDER BY day`,
    params,
    DayRow,
  );
  return profileOf(facts, touch, gas, days);
}
