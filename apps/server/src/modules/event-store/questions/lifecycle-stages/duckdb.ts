import { DAY_MS } from '../../../../reading/time-range.ts';
import { eventFilter, FILTERED_WALLETS_CTE, NO_FILTER, withCtes } from '../../duckdb/event-filter.ts';
import { type Connection, type Params, rangeParams, rowsOf } from '../../duckdb/sql.ts';
import { idHash } from '../../duckdb/user-quarters.ts';
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

/** Per wallet of the project with an active day up to $asof: the facts of question.ts, from `wallet_active_days`. */
export const WALLET_FACTS_DUCKDB = `wallet_facts AS (
  SELECT wallet_address AS wallet,
         date_diff('day', min(day), $asof::DATE) AS age,
         count(*) FILTER (WHERE date_diff('day', day, $asof::DATE) < 28) AS n28,
         count(*) FILTER (WHERE date_diff('day', day, $asof::DATE) < 14) AS n14,
         count(*) FILTER (WHERE date_diff('day', day, $asof::DATE) BETWEEN 28 AND 55) AS n_before
    FROM wallet_active_days
   WHERE project_id = $project AND day <= $asof::DATE
   GROUP BY wallet_address
)`;

/**
 * The same facts in a zone other than UTC, from the wallets' UTC quarter-hours with an event in the
 * window's local days (A−55…A; `wallet_quarters`: a quarter-hour lies in one local day of any zone, and
 * the window's local midnights are quarter-hour boundaries, ADR 087) and each wallet's first time seen
 * (`wallet_first_touches`): a wallet first seen before the window is at least 56 days old, which is all the
 * rules ask of its age then. Parameters `$lw_from`, `$lw_to` (`walletFactsDuckdb`). The quarter-hours are
 * grouped by the wallet's stored hash (`wallet_hash`, ADR 095): a third less CPU than by its text.
 */
const zonedWalletFacts = (window: LifecycleWindow) => {
  const back = (ms: string) => daysBackSql(window, ms, (a, b) => `${a} // ${b}`);
  return `wallet_facts AS (
  SELECT lf.wallet_address AS wallet,
         CASE WHEN lf.first_seen < make_timestamp($lw_from::BIGINT * 1000) THEN ${WINDOW_DAYS}
              ELSE ${back('epoch_ms(lf.first_seen)')} END AS age,
         coalesce(ld.n28, 0) AS n28, coalesce(ld.n14, 0) AS n14, coalesce(ld.n_before, 0) AS n_before
    FROM wallet_first_touches lf
    LEFT JOIN (
      SELECT wallet_hash,
             count(*) FILTER (WHERE back < 28) AS n28,
             count(*) FILTER (WHERE back < 14) AS n14,
             count(*) FILTER (WHERE back >= 28) AS n_before
        FROM (SELECT DISTINCT wallet_hash, ${back('epoch_ms(quarter)')} AS back
                FROM wallet_quarters
               WHERE project_id = $project
                 AND quarter >= make_timestamp($lw_from::BIGINT * 1000) AND quarter < make_timestamp($lw_to::BIGINT * 1000))
       GROUP BY wallet_hash
    ) ld ON ld.wallet_hash = ${idHash('lf.wallet_address')}
   WHERE lf.project_id = $project AND lf.first_seen < make_timestamp($lw_to::BIGINT * 1000)
)`;
};

/**
 * The facts' CTE (`wallet_facts`) and its parameters for the as-of day of a zone (default UTC), and the
 * as-of day's end (`endMs`): a wallet with an event before it has facts.
 */
export function walletFactsDuckdb(
  asOfDay: string,
  timeZone?: string,
): { sql: string; params: Params; endMs: number } {
  const window = lifecycleWindow(asOfDay, timeZone);
  return window
    ? {
        sql: zonedWalletFacts(window),
        params: { lw_from: BigInt(window.fromMs), lw_to: BigInt(window.toMs) },
        endMs: window.toMs,
      }
    : { sql: WALLET_FACTS_DUCKDB, params: { asof: asOfDay }, endMs: Date.parse(asOfDay) + DAY_MS };
}

/**
 * One wallet's facts as of the as-of day of a zone (the wallet page), as `zonedWalletFacts` computes them
 * for every wallet: its first time seen (`wallet_first_touches`, by its key) and the local days of its
 * quarter-hours in the window (`wallet_quarters` of the window's days, by the wallet's hash). Null when
 * the wallet was not seen by the window's end.
 */
export async function walletStageFacts(
  connection: Connection,
  projectId: string,
  wallet: string,
  asOfDay: string,
  timeZone: string,
): Promise<WalletFacts | null> {
  const window = localWindow(asOfDay, timeZone);
  const back = (ms: string) => daysBackSql(window, ms, (a, b) => `${a} // ${b}`);
  const [row] = await rowsOf(
    connection,
    `SELECT CASE WHEN first_seen < make_timestamp($lw_from::BIGINT * 1000) THEN ${WINDOW_DAYS}
                 ELSE ${back('epoch_ms(first_seen)')} END AS age,
            (SELECT coalesce(list(DISTINCT ${back('epoch_ms(quarter)')}), []) FROM wallet_quarters
              WHERE project_id = $project AND wallet_hash = ${idHash('$wallet')}
                AND quarter >= make_timestamp($lw_from::BIGINT * 1000) AND quarter < make_timestamp($lw_to::BIGINT * 1000)) AS backs
       FROM wallet_first_touches
      WHERE project_id = $project AND wallet_address = $wallet AND first_seen < make_timestamp($lw_to::BIGINT * 1000)`,
    { project: projectId, wallet, lw_from: BigInt(window.fromMs), lw_to: BigInt(window.toMs) },
    BacksRow,
  );
  return row ? factsOfBacks(row.age, row.backs) : null;
}

/** The counts and the Power threshold of the as-of day, in one read of `wallet_active_days` (question.ts). */
export async function lifecycleCounts(
  connection: Connection,
  projectId: string,
  asOfDay: string,
  matching?: SessionMatch,
  timeZone?: string,
): Promise<LifecycleCounts> {
  const facts = walletFactsDuckdb(asOfDay, timeZone);
  const filter = matching
    ? await eventFilter(connection, projectId, matching.range, matching.filters)
    : NO_FILTER;
  if (matching && filter.cte) {
    // The wallets a passing session carried in the range, marked among all (ADR 074, docs/wallets.md).
    const rows = await rowsOf(
      connection,
      `${withCtes(filter.cte, FILTERED_WALLETS_CTE, facts.sql)},
       grouped AS (
         SELECT ${GROUP_SQL} AS stage, n28,
                (wallet IN (SELECT wallet FROM filtered_wallets))::INTEGER AS matched
           FROM wallet_facts
       )
       SELECT stage, CASE WHEN stage = 'recent' THEN n28 ELSE 0 END AS n28, matched, count(*) AS wallets
         FROM grouped GROUP BY ALL`,
      { ...rangeParams(projectId, matching.range), ...facts.params, ...filter.params },
      GroupRow,
    );
    return countsOfGroups(rows);
  }
  const rows = await rowsOf(
    connection,
    `WITH ${facts.sql}, grouped AS (SELECT ${GROUP_SQL} AS stage, n28 FROM wallet_facts)
     SELECT stage, CASE WHEN stage = 'recent' THEN n28 ELSE 0 END AS n28, count(*) AS wallets
       FROM grouped GROUP BY ALL`,
    { project: projectId, ...facts.params },
    GroupRow,
  );
  return countsOfGroups(rows);
}
