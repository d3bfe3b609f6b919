import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { eventFilter, FILTERED_WALLETS_CTE, withCtes } from '../../clickhouse/event-filter.ts';
import { rangeParams } from '../../clickhouse/sql.ts';
import { idHash } from '../../clickhouse/user-quarters.ts';
import {
  factsOfBacks,
  type LifecycleCounts,
  type SessionMatch,
  type WalletFacts,
} from '../../wallet-questions.ts';
import {
  BacksRow,
  countsOfGroups,
  daysBackSql,
  GROUP_SQL,
  GroupRow,
  type LifecycleWindow,
  lifecycleWindow,
  localWindow,
  WINDOW_DAYS,
} from './question.ts';

const DAYS_BACK = "dateDiff('day', day, toDate({asof:String}))";

/**
 * Per wallet of the project with an active day up to {asof}: the facts of question.ts, from `wallet_days`
 * (an AggregatingMergeTree read without FINAL: a day's row may be there twice, so days count distinct).
 */
export const WALLET_FACTS_CLICKHOUSE = `wallet_facts AS (
  SELECT wallet,
         dateDiff('day', min(day), toDate({asof:String})) AS age,
         uniqExactIf(day, ${DAYS_BACK} < 28) AS n28,
         uniqExactIf(day, ${DAYS_BACK} < 14) AS n14,
         uniqExactIf(day, ${DAYS_BACK} BETWEEN 28 AND 55) AS n_before
    FROM wallet_days
   WHERE project_id = {project:String} AND day <= toDate({asof:String})
   GROUP BY wallet
)`;

const LW_FROM = "fromUnixTimestamp64Milli({lw_from:Int64}, 'UTC')";
const LW_TO = "fromUnixTimestamp64Milli({lw_to:Int64}, 'UTC')";

/**
 * The same facts in a zone other than UTC, from the wallets' UTC quarter-hours with an event in the
 * window's local days (A−55…A; `wallet_quarters`, no `FINAL`: a duplicate changes no distinct count; a
 * quarter-hour lies in one local day of any zone, ADR 087) and each wallet's first time seen
 * (`wallet_firsts`, its rows folded by min): a wallet first seen before the window is at least 56 days
 * old, which is all the rules ask of its age then. Parameters `lw_from`, `lw_to` (`walletFactsClickhouse`).
 * A wallet's window days are the bits of one UInt64 (bit b: b local days back from A; 56 days fit), its
 * counts their bits, its quarter-hours grouped by the wallet's stored hash (`wallet_hash`): a third less CPU
 * on chdb than three distinct counts per wallet text (ADR 095). Each row carries the wallet's first time
 * seen (`first_seen`), which the Wallets list shows, so that it reads `wallet_firsts` once (ADR 140).
 */
const zonedWalletFacts = (window: LifecycleWindow) => {
  if (WINDOW_DAYS > 64) throw new Error("the window's days are bits of one UInt64");
  const back = (ms: string) => daysBackSql(window, ms, (a, b) => `intDiv(${a}, ${b})`);
  return `wallet_facts AS (
  SELECT lf_wallet AS wallet,
         if(lf_first < ${LW_FROM}, ${WINDOW_DAYS}, ${back('toUnixTimestamp64Milli(lf_first)')}) AS age,
         ld_n28 AS n28, ld_n14 AS n14, ld_n_before AS n_before, lf_first AS first_seen
    FROM (SELECT lf_wallet, ${idHash('lf_wallet')} AS lf_hash, lf_first
            FROM (SELECT wallet AS lf_wallet, min(first_seen) AS lf_first
                    FROM wallet_firsts WHERE project_id = {project:String}
                   GROUP BY lf_wallet HAVING lf_first < ${LW_TO})) AS lf
    LEFT JOIN (
      SELECT ld_hash, bitCount(bitAnd(ld_days, ${(1 << 28) - 1})) AS ld_n28,
             bitCount(bitAnd(ld_days, ${(1 << 14) - 1})) AS ld_n14, bitCount(bitShiftRight(ld_days, 28)) AS ld_n_before
        FROM (SELECT wallet_hash AS ld_hash,
                     groupBitOr(bitShiftLeft(toUInt64(1), toUInt8(${back('toUnixTimestamp64Milli(quarter)')}))) AS ld_days
                FROM wallet_quarters
               WHERE project_id = {project:String} AND quarter >= ${LW_FROM} AND quarter < ${LW_TO}
               GROUP BY ld_hash)
    ) AS ld ON ld_hash = lf_hash
)`;
};

/** The facts' CTE (`wallet_facts`) and its parameters for the as-of day of a zone (default UTC). */
export function walletFactsClickhouse(asOfDay: string, timeZone?: string): { sql: string; params: Params } {
  const window = lifecycleWindow(asOfDay, timeZone);
  return window
    ? { sql: zonedWalletFacts(window), params: { lw_from: window.fromMs, lw_to: window.toMs } }
    : { sql: WALLET_FACTS_CLICKHOUSE, params: { asof: asOfDay } };
}

/**
 * One wallet's facts as of the as-of day of a zone (the wallet page), as `zonedWalletFacts` computes them
 * for every wallet: its first time seen (`wallet_firsts`) and the local days of its events in the window
 * that carried it as the connected wallet (the events of its `wallet_quarters` rows), both read by the
 * wallet's key (`wallet_events`: a local day's events are those of its quarter-hours, the window's ends
 * being quarter-hours). Null when the wallet was not seen by the window's end.
 */
export async function walletStageFacts(
  clickhouse: ClickHouse,
  projectId: string,
  wallet: string,
  asOfDay: string,
  timeZone: string,
): Promise<WalletFacts | null> {
  const window = localWindow(asOfDay, timeZone);
  const back = (ms: string) => daysBackSql(window, ms, (a, b) => `intDiv(${a}, ${b})`);
  const [row] = await clickhouse.rows(
    `SELECT if(f_first < ${LW_FROM}, ${WINDOW_DAYS}, ${back('toUnixTimestamp64Milli(f_first)')}) AS age, q_backs AS backs
       FROM (SELECT min(first_seen) AS f_first FROM wallet_firsts
              WHERE project_id = {project:String} AND wallet = {wallet:String}
             HAVING count() > 0 AND f_first < ${LW_TO}) AS f
      CROSS JOIN (SELECT groupUniqArray(toInt64(${back('toUnixTimestamp64Milli(ts)')})) AS q_backs FROM wallet_events
                   WHERE project_id = {project:String} AND wallet = {wallet:String} AND wallet_address = {wallet:String}
                     AND ts >= ${LW_FROM} AND ts < ${LW_TO}) AS q`,
    { project: projectId, wallet, lw_from: window.fromMs, lw_to: window.toMs },
    BacksRow,
  );
  return row ? factsOfBacks(row.age, row.backs) : null;
}

/** The counts and the Power threshold of the as-of day, in one read of `wallet_days` (question.ts). */
export async function lifecycleCounts(
  clickhouse: ClickHouse,
  projectId: string,
  asOfDay: string,
  matching?: SessionMatch,
  timeZone?: string,
): Promise<LifecycleCounts> {
  const facts = walletFactsClickhouse(asOfDay, timeZone);
  const filter = eventFilter(matching?.filters, matching?.range);
  if (matching && filter.cte) {
    // The wallets a passing session carried in the range, marked among all (ADR 074, docs/wallets.md).
    const rows = await clickhouse.rows(
      `${withCtes(filter.cte, FILTERED_WALLETS_CTE, facts.sql)},
       grouped AS (
         SELECT ${GROUP_SQL} AS g_stage, n28 AS g_n28,
                toUInt8(wallet IN (SELECT wallet FROM filtered_wallets)) AS g_matched
           FROM wallet_facts
       )
       SELECT g_stage AS stage, if(g_stage = 'recent', g_n28, 0) AS n28, g_matched AS matched, count() AS wallets
         FROM grouped GROUP BY stage, n28, matched`,
      { ...rangeParams(projectId, matching.range), ...facts.params, ...filter.params },
      GroupRow,
    );
    return countsOfGroups(rows);
  }
  const rows = await clickhouse.rows(
    `WITH ${facts.sql}, grouped AS (SELECT ${GROUP_SQL} AS g_stage, n28 AS g_n28 FROM wallet_facts)
     SELECT g_stage AS stage, if(g_stage = 'recent', g_n28, 0) AS n28, count() AS wallets
       FROM grouped GROUP BY stage, n28`,
    { project: projectId, ...facts.params },
    GroupRow,
  );
  return countsOfGroups(rows);
}
