/**
 * `wallet_firsts`: one row per (project, wallet) with the first time an event ever carried the wallet and
 * the first time it ever connected (docs/decisions/046-clickhouse-wallet-firsts.md): the minima of the
 * wallet's `wallet_days` rows. "Seen before the range" (the new wallets) and "connected before the range"
 * (attribution's "+ Wallets") read one row per wallet of the project instead of every wallet-day or every
 * connection of its history.
 *
 * An AggregatingMergeTree of two minima, fed by a view on `wallet_days` (ADR 031), as `user_value_sets`
 * is on `session_days`: every row that reaches `wallet_days` (a load through its view on `events`, a
 * rebuild after a delete, a migration's copy) reaches this table in the same statement. A row stored
 * twice, or a wallet's days spread over several loads, fold to the same minima. "Seen before" reads it
 * without FINAL: a wallet with some row whose minimum lies before a time has its folded minimum before
 * it too. "First connected in a range" needs the folded minimum itself, so reads it with FINAL (after
 * ADR 097's merge a project's rows are one part, where FINAL costs what the plain read costs).
 */

export const CREATE_WALLET_FIRSTS = `CREATE TABLE IF NOT EXISTS wallet_firsts (
  project_id String,
  wallet String,
  first_seen SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
  first_connected SimpleAggregateFunction(min, Nullable(DateTime64(3, 'UTC')))
) ENGINE = AggregatingMergeTree
ORDER BY (project_id, wallet)`;

/** The rows of `wallet_firsts` for the `wallet_days` rows a SELECT reads (`where`: conditions on them). */
export const walletFirstsOfWalletDays = (where = '') =>
  `SELECT project_id, wallet, min(first_seen) AS first_seen, min(first_connected) AS first_connected
    FROM wallet_days${where ? `\n   WHERE ${where}` : ''}
   GROUP BY project_id, wallet`;

/**
 * The table, the view that feeds it, then the rows of what `wallet_days` holds (a row reaching both
 * meanwhile is a duplicate, which folds away), sorted by the key so that the copy lands as parts of
 * consecutive keys.
 */
export const WALLET_FIRSTS_STATEMENTS = [
  CREATE_WALLET_FIRSTS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS wallet_firsts_of_wallet_days TO wallet_firsts AS
${walletFirstsOfWalletDays()}`,
  `INSERT INTO wallet_firsts ${walletFirstsOfWalletDays()}
   ORDER BY project_id, wallet`,
];

/** The project's wallets some event carried before `before` (a DateTime64 expression); may repeat a wallet. */
export const walletsSeenBefore = (before: string) =>
  `SELECT wallet FROM wallet_firsts WHERE project_id = {project:String} AND first_seen < ${before}`;

/**
 * The project's wallets whose first connection ever lies in [`from`, `to`) (DateTime64 expressions): the
 * folded minimum (FINAL; a condition on it is applied after the merge), one row per wallet. About 1,300
 * wallets where "connected before the range" named 12,500 on the bench's largest project (ADR 116).
 */
export const walletsFirstConnectedIn = (from: string, to: string) =>
  `SELECT wallet FROM wallet_firsts FINAL
    WHERE project_id = {project:String} AND first_connected >= ${from} AND first_connected < ${to}`;
