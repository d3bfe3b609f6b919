import { z } from 'zod';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { EVENTS, LATEST_STAGE, ms } from '../../clickhouse/sql.ts';
import type { WalletProfile } from '../../wallet-questions.ts';
import { CARRIES_WALLET, gasOf, sortedValues } from './question.ts';

const CARRIES = CARRIES_WALLET.replaceAll('{wallet}', '{wallet:String}');
const FEE = 'toInt256(assumeNotNull(gas_used)) * toInt256(assumeNotNull(effective_gas_price))';
const HAS_FEE = 'gas_used IS NOT NULL AND effective_gas_price IS NOT NULL';

/** The wallet's transactions: latest stage, chain, and each kind's latest receipt fee. */
const TRANSACTIONS = `wallet_txs AS (
  SELECT tx_id FROM ${EVENTS}
   WHERE project_id = {project:String} AND type = 'tx' AND tx_id IS NOT NULL AND ${CARRIES}
   GROUP BY tx_id
  HAVING argMin(coalesce(tx_from, wallet_address), ts) = {wallet:String}
),
txs AS (
  SELECT tx_id AS t_id, ${LATEST_STAGE} AS t_status, argMin(chain_id, ts) AS t_chain,
         argMaxIf(${FEE}, ts, tx_stage = 'confirmed' AND ${HAS_FEE}) AS t_confirmed,
         argMaxIf(${FEE}, ts, tx_stage = 'reverted' AND ${HAS_FEE}) AS t_reverted
    FROM ${EVENTS}
   WHERE project_id = {project:String} AND type = 'tx' AND tx_id IN (SELECT tx_id FROM wallet_txs)
   GROUP BY tx_id
)`;

const text = z.string().nullable();
const FactsRow = z.object({
  events: z.coerce.number(),
  first_ms: z.coerce.number(),
  last_ms: z.coerce.number(),
  connected_ms: z.coerce.number().nullable(),
  first_session: z.string(),
  countries: z.array(text),
  browsers: z.array(text),
  providers: z.array(text),
  chains: z.array(z.coerce.number().nullable()),
  sessions: z.coerce.number(),
});
const TouchRow = z.object({ source: text, medium: text, campaign: text, referrer: text, landing_path: text });
const DayRow = z.object({ day: z.string() });
const GasRow = z.object({
  chain: z.coerce.number().nullable(),
  paid: z.string(),
  burned: z.string(),
  reverted: z.coerce.number(),
  failed: z.coerce.number(),
  transactions: z.coerce.number(),
});

export async function walletProfile(
  clickhouse: ClickHouse,
  projectId: string,
  wallet: string,
): Promise<WalletProfile | null> {
  const params = { project: projectId, wallet };
  const [facts] = await clickhouse.rows(
    `SELECT count() AS events, ${ms('min(ts)')} AS first_ms, ${ms('max(ts)')} AS last_ms,
            if(countIf(type = 'wallet_connected' AND wallet_address = {wallet:String}) = 0, NULL,
               ${ms("minIf(ts, type = 'wallet_connected' AND wallet_address = {wallet:String})")}) AS connected_ms,
            argMin(session_id, (ts, id)) AS first_session,
            groupUniqArray(country) AS countries, groupUniqArray(browser) AS browsers,
            groupUniqArray(wallet_provider) AS providers, groupUniqArray(chain_id) AS chains,
            uniqExact(session_id) AS sessions
       FROM ${EVENTS} WHERE project_id = {project:String} AND ${CARRIES}`,
    params,
    FactsRow,
  );
  if (!facts || facts.events === 0) return null;
  const [[touch], gas, days] = await Promise.all([
    clickhouse.rows(
      `SELECT argMin(utm_source, (ts, id)) AS source, argMin(utm_medium, (ts, id)) AS medium,
              argMin(utm_campaign, (ts, id)) AS campaign,
              argMinIf(referrer, (ts, id), type = 'page_view') AS referrer,
              argMinIf(path, (ts, id), type = 'page_view') AS landing_path
         FROM ${EVENTS} WHERE project_id = {project:String} AND session_id = {session:String}`,
      { project: projectId, session: facts.first_session },
      TouchRow,
    ),
    clickhouse.rows(
      `WITH ${TRANSACTIONS}
       SELECT t_chain AS chain, toString(sum(t_confirmed) + sum(t_reverted)) AS paid,
              toString(sum(t_reverted)) AS burned,
              countIf(t_status = 'reverted') AS reverted, countIf(t_status = 'failed') AS failed,
              count() AS transactions
         FROM txs GROUP BY t_chain`,
      params,
      GasRow,
    ),
    clickhouse.rows(
      `SELECT DISTINCT toString(day) AS day FROM wallet_days
        WHERE project_id = {project:String} AND wallet = {wallet:String} ORDER BY day`,
      params,
      DayRow,
    ),
  ]);
  return {
    firstSeenMs: facts.first_ms,
    lastSeenMs: facts.last_ms,
    firstConnectedMs: facts.connected_ms,
    firstTouch: touch
      ? {
          source: touch.source,
          medium: touch.medium,
          campaign: touch.campaign,
          referrer: touch.referrer,
          landingPath: touch.landing_path,
        }
      : null,
    countries: sortedValues(facts.countries),
    browsers: sortedValues(facts.browsers),
    providers: sortedValues(facts.providers),
    chains: sortedValues(facts.chains),
    sessions: facts.sessions,
    activeDays: days.map((row) => row.day),
    // One query for the totals and the gas: the per-chain rows add up to the wallet's.
    transactions: gas.reduce((total, row) => total + row.transactions, 0),
    failedBeforeSubmission: gas.reduce((total, row) => total + row.failed, 0),
    reverted: gas.reduce((total, row) => total + row.reverted, 0),
    gas: gasOf(gas.map((row) => ({ ...row, chainId: row.chain }))),
  };
}
