import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { eventFilter, FILTERED_WALLETS_CTE, withCtes } from '../../clickhouse/event-filter.ts';
import { rangeParams } from '../../clickhouse/sql.ts';
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
import { utcDaySplits } from './utc-day-splits.ts';

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
 * The same facts in a zone other than UTC, from each wallet's first time seen (`wallet_firsts`, its rows
 * folded by min: a wallet first seen before the window is at least 56 days old, which is all the rules ask
 * of its age then) and its local days in the window (A−55…A), as the bits of one UInt64 (bit b: b local
 * days back from A; 56 days fit), its counts their bits (ADR 095). The local days come from one row per
 * wallet-day (`wallet_list_days`, no `FINAL`: each row's bits are ORed) of the UTC days the window touches:
 * its first time before the UTC day's local midnight sets the local day before it, its latest at or after
 * it the day after (`utcDaySplits`, ADR 140), where the quarter-hours (`wallet_quarters`, ADR 087) were
 * read: a tenth of the rows; a UTC day holding two local midnights reads its quarter-hours. Parameters
 * `lw_from`, `lw_to`, `lw_first_day`, `lw_last_day`, `lw_splits`, `lw_before`, `lw_after`
 * (`walletFactsClickhouse`).
 */
const zonedWalletFacts = (window: LifecycleWindow, irregular: readonly TimeRange[]) => {
  if (WINDOW_DAYS > 64) throw new Error("the window's days are bits of one UInt64");
  const back = (ms: string) => daysBackSql(window, ms, (a, b) => `intDiv(${a}, ${b})`);
  const at = (name: string, type: string) =>
    `arrayMap(x -> to${type}(x), {${name}:Array(String)})[toUInt16(day) - toUInt16({lw_first_day:Date}) + 1]`;
  const quarters = irregular.map(
    ({ fromMs, toMs }) =>
      `(quarter >= fromUnixTimestamp64Milli(${fromMs}, 'UTC') AND quarter < fromUnixTimestamp64Milli(${toMs}, 'UTC'))`,
  );
  const ofQuarters = quarters.length
    ? `
                UNION ALL
              SELECT wallet, bitShiftLeft(toUInt64(1), toUInt8(${back('toUnixTimestamp64Milli(quarter)')}))
                FROM wallet_quarters
               WHERE project_id = {project:String} AND (${quarters.join(' OR ')})`
    : '';
  return `wallet_facts AS (
  SELECT lf_wallet AS wallet,
         if(lf_first < ${LW_FROM}, ${WINDOW_DAYS}, ${back('toUnixTimestamp64Milli(lf_first)')}) AS age,
         ld_n28 AS n28, ld_n14 AS n14, ld_n_before AS n_before
    FROM (SELECT wallet AS lf_wallet, min(first_seen) AS lf_first
            FROM wallet_firsts WHERE project_id = {project:String}
           GROUP BY lf_wallet HAVING lf_first < ${LW_TO}) AS lf
    LEFT JOIN (
      SELECT ld_wallet, bitCount(bitAnd(ld_days, ${(1 << 28) - 1})) AS ld_n28,
             bitCount(bitAnd(ld_days, ${(1 << 14) - 1})) AS ld_n14, bitCount(bitShiftRight(ld_days, 28)) AS ld_n_before
        FROM (SELECT ld_wallet, groupBitOr(ld_bits) AS ld_days
                FROM (SELECT wallet AS ld_wallet,
                             bitOr(if(toUnixTimestamp64Milli(first_seen) < ${at('lw_splits', 'Int64')}, ${at('lw_before', 'UInt64')}, 0),
                                   if(toUnixTimestamp64Milli(last_seen) >= ${at('lw_splits', 'Int64')}, ${at('lw_after', 'UInt64')}, 0)) AS ld_bits
                        FROM wallet_list_days
                       WHERE project_id = {project:String}
                         AND day >= {lw_first_day:Date} AND day <= {lw_last_day:Date}${ofQuarters})
               GROUP BY ld_wallet)
    ) AS ld ON ld_wallet = lf_wallet
)`;
};

/** The facts' CTE (`wallet_facts`) and its parameters for the as-of day of a zone (default UTC). */
export function walletFactsClickhouse(asOfDay: string, timeZone?: string): { sql: string; params: Params } {
  const window = lifecycleWindow(asOfDay, timeZone);
  if (!window) return { sql: WALLET_FACTS_CLICKHOUSE, params: { asof: asOfDay } };
  const days = utcDaySplits(window);
  return {
    sql: zonedWalletFacts(window, days.irregular),
    params: {
      lw_from: window.fromMs,
      lw_to: window.toMs,
      lw_first_day: days.firstDay,
      lw_last_day: days.lastDay,
      lw_splits: days.splits,
      lw_before: days.before,
      lw_after: days.after,
    },
  };
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
