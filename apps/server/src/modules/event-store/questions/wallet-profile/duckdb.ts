import { type Connection, numberOrNull, rowsOf, STAGE_KEY, textOrNull } from '../../duckdb/sql.ts';
import type { WalletProfile } from '../../wallet-questions.ts';
import { CARRIES_WALLET, gasOf, sortedValues } from './question.ts';

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
         arg_max(gas_used * effective_gas_price, ts) FILTER (WHERE tx_stage = 'confirmed' AND gas_used IS NOT NULL AND effective_gas_price IS NOT NULL) AS paid_confirmed,
         arg_max(gas_used * effective_gas_price, ts) FILTER (WHERE tx_stage = 'reverted' AND gas_used IS NOT NULL AND effective_gas_price IS NOT NULL) AS paid_reverted
    FROM events
   WHERE project_id = $project AND type = 'tx' AND tx_id IN (SELECT tx_id FROM wallet_txs)
   GROUP BY tx_id
)`;

const sum = (rows: Record<string, unknown>[], column: string) =>
  rows.reduce((total, row) => total + Number(row[column]), 0);

export async function walletProfile(
  connection: Connection,
  projectId: string,
  wallet: string,
): Promise<WalletProfile | null> {
  const params = { project: projectId, wallet };
  const [facts] = await rowsOf(
    connection,
    `SELECT epoch_ms(min(ts)) AS first_ms, epoch_ms(max(ts)) AS last_ms,
            epoch_ms(min(ts) FILTER (WHERE type = 'wallet_connected' AND wallet_address = $wallet)) AS connected_ms,
            arg_min(session_id, (ts, id)) AS first_session,
            list(DISTINCT country) AS countries, list(DISTINCT browser) AS browsers,
            list(DISTINCT wallet_provider) AS providers, list(DISTINCT chain_id) AS chains,
            count(DISTINCT session_id) AS sessions
       FROM events WHERE project_id = $project AND ${CARRIES}`,
    params,
  );
  if (!facts || facts.first_ms === null) return null;
  const [touch] = await rowsOf(
    connection,
    `SELECT arg_min(utm_source, (ts, id)) AS source, arg_min(utm_medium, (ts, id)) AS medium,
            arg_min(utm_campaign, (ts, id)) AS campaign,
            arg_min(referrer, (ts, id)) FILTER (WHERE type = 'page_view') AS referrer,
            arg_min(path, (ts, id)) FILTER (WHERE type = 'page_view') AS landing_path
       FROM events WHERE project_id = $project AND session_id = $session`,
    { project: projectId, session: String(facts.first_session) },
  );
  const gas = await rowsOf(
    connection,
    `WITH ${TRANSACTIONS}
     SELECT chain_id, (coalesce(sum(paid_confirmed), 0) + coalesce(sum(paid_reverted), 0))::VARCHAR AS paid,
            coalesce(sum(paid_reverted), 0)::VARCHAR AS burned,
            count(*) FILTER (WHERE status = 'reverted') AS reverted,
            count(*) FILTER (WHERE status = 'failed') AS failed, count(*) AS transactions
       FROM txs GROUP BY chain_id`,
    params,
  );
  const days = await rowsOf(
    connection,
    `SELECT strftime(day, '%Y-%m-%d') AS day FROM wallet_days
      WHERE project_id = $project AND wallet_address = $wallet ORDER BY day`,
    params,
  );
  const list = <T>(value: unknown) => (Array.isArray(value) ? (value as (T | null)[]) : []);
  return {
    firstSeenMs: Number(facts.first_ms),
    lastSeenMs: Number(facts.last_ms),
    firstConnectedMs: numberOrNull(facts.connected_ms),
    firstTouch: touch
      ? {
          source: textOrNull(touch.source),
          medium: textOrNull(touch.medium),
          campaign: textOrNull(touch.campaign),
          referrer: textOrNull(touch.referrer),
          landingPath: textOrNull(touch.landing_path),
        }
      : null,
    countries: sortedValues(list<string>(facts.countries)),
    browsers: sortedValues(list<string>(facts.browsers)),
    providers: sortedValues(list<string>(facts.providers)),
    chains: sortedValues(list<bigint>(facts.chains).map((chain) => numberOrNull(chain))),
    sessions: Number(facts.sessions),
    activeDays: days.map((row) => String(row.day)),
    // One scan for the totals and the gas: the per-chain rows add up to the wallet's.
    transactions: sum(gas, 'transactions'),
    failedBeforeSubmission: sum(gas, 'failed'),
    reverted: sum(gas, 'reverted'),
    gas: gasOf(
      gas.map((row) => ({
        chainId: numberOrNull(row.chain_id),
        paid: String(row.paid),
        burned: String(row.burned),
        reverted: Number(row.reverted),
        failed: Number(row.failed),
      })),
    ),
  };
}
